"""A walker's planted foot stays where it is on the ground, and the walker stays in the frame.

With a still, zooming or orbiting camera a walker or runner was held near the middle of the
frame: the body hardly moved while the legs stepped, so during a long walk the feet slid
over the ground like on ice. Measured on the renderer's own numbers: where it draws the
hip in each frame, the pose it draws there, and the ankle as its pen maps it to pixels,
plus the camera's shift of the ground.
"""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.render import ClipRenderer, frame_times, plan_from_conditioning
from studio.engines.sketch.skeleton import Pen, build_skeleton

from ..sketch_helpers import predict

LONG = {"height": 240, "width": 360, "frames": 73, "fps": 24}
"""Three seconds: longer than a walk across the stage at the slowest camera."""


def _ground_positions(renderer: ClipRenderer, index: int) -> tuple[float, float]:
    """Where the back and the front ankle are on the ground (pixels along it) in frame ``index``."""
    plan = renderer.plan
    t = frame_times(plan.frames)[index]
    hip_x, facing, pose = renderer.placement(index)
    pen = Pen(ImageDraw.Draw(Image.new("RGBA", (1, 1))), (0.0, 0.0), renderer.scale, facing, pose)
    sk = build_skeleton(pose)
    cam = camera_frame(plan.camera, t, renderer.travelled(t), plan.facing, plan.zoom_out)
    ground_shift = cam.cam_x * plan.width  # the ground moves by the camera's position
    back, front = (hip_x + pen.px(ankle)[0] + ground_shift for ankle in (sk.ankle_b, sk.ankle_f))
    return back, front


@pytest.mark.parametrize(("motion", "camera"), [("walk", "static"), ("walk", "zoom"), ("run", "static"),
                                                ("walk", "orbit"), ("carry", "static"), ("run", "follow")])
def test_a_planted_foot_does_not_slide(engine: SketchEngine, motion: str, camera: str) -> None:
    for seed in (0, 5):
        text = f"Character: Qiqi; Motion: {motion}; Background: day countryside; Camera: {camera}."
        pred = predict(engine, text, seed=seed, settings=LONG)
        renderer = ClipRenderer(plan_from_conditioning(pred.conditioning))
        feet = [_ground_positions(renderer, i) for i in range(LONG["frames"])]
        planted = sum(min(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 0.5 for a, b in itertools.pairwise(feet))
        # Between most pairs of frames one foot stays on its spot; in the others the feet take
        # turns within the interval.
        assert planted >= 0.75 * (len(feet) - 1), (motion, camera, seed, planted)
        hips = [renderer.placement(i)[0] for i in range(LONG["frames"])]
        assert max(hips) - min(hips) > 0.15 * LONG["width"] or camera == "follow", "the walker goes somewhere"


@pytest.mark.parametrize("camera", ["static", "zoom", "orbit"])
def test_a_long_walk_stays_in_the_frame(engine: SketchEngine, camera: str) -> None:
    for seed in range(4):
        text = f"Character: Taro; Motion: run; Background: day park; Camera: {camera}."
        pred = predict(engine, text, seed=seed, settings=LONG)
        renderer = ClipRenderer(plan_from_conditioning(pred.conditioning))
        hips = [renderer.placement(i)[0] for i in range(LONG["frames"])]
        margin = 0.1 * LONG["width"]
        assert margin <= min(hips) and max(hips) <= LONG["width"] - margin, (seed, min(hips), max(hips))
        facings = {renderer.placement(i)[1] for i in range(LONG["frames"])}
        assert facings == {-1, 1}, "a run longer than the stage turns round and comes back"
