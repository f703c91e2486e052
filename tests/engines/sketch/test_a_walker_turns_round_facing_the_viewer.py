"""A walker who turns round at the edge of the stage stops, faces the viewer and walks back.

The walk used to flip to the other direction from one frame to the next, mid-stride, which
read as a jump cut rather than a turn. Measured on the renderer's own numbers: the frames
around the change of direction, the pose drawn there and the ankles as the pen maps them.
"""

from __future__ import annotations

import itertools

from PIL import Image, ImageDraw

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.render import ClipRenderer, frame_times, plan_from_conditioning
from studio.engines.sketch.skeleton import Pen, build_skeleton

from ..sketch_helpers import predict

LONG = {"height": 240, "width": 360, "frames": 73, "fps": 24}


def _feet(renderer: ClipRenderer, index: int) -> tuple[float, float]:
    """Where the two ankles are along the ground (pixels) in frame ``index``."""
    plan = renderer.plan
    t = frame_times(plan.frames)[index]
    hip_x, facing, pose = renderer.placement(index)
    pen = Pen(ImageDraw.Draw(Image.new("RGBA", (1, 1))), (0.0, 0.0), renderer.scale, facing, pose)
    sk = build_skeleton(pose)
    shift = camera_frame(plan.camera, t, renderer.travelled(t), plan.facing, plan.zoom_out).cam_x * plan.width
    back, front = (hip_x + pen.px(ankle)[0] + shift for ankle in (sk.ankle_b, sk.ankle_f))
    return back, front


def test_the_turn_takes_a_few_frames_facing_the_viewer(engine: SketchEngine) -> None:
    for motion, camera, seed in (("run", "static", 0), ("run", "zoom", 1), ("run", "static", 3), ("run", "orbit", 2)):
        text = f"Character: Taro; Motion: {motion}; Background: day park; Camera: {camera}."
        renderer = ClipRenderer(plan_from_conditioning(predict(engine, text, seed=seed, settings=LONG).conditioning))
        places = [renderer.placement(i) for i in range(LONG["frames"])]
        flips = [i for i in range(1, len(places)) if places[i][1] != places[i - 1][1]]
        assert flips, (motion, camera, seed, "the walk is long enough to turn round")
        flip = flips[0]
        window = range(flip - 3, flip + 3)
        # Around the change of direction the face looks out of the picture (head turned to the front)...
        assert abs(places[flip][2].head_yaw) < 0.05 and abs(places[flip - 1][2].head_yaw) < 0.05, (motion, seed)
        # ...the body stays on its spot for a few frames...
        hips = [places[i][0] for i in window]
        assert max(hips) - min(hips) < 0.02 * LONG["width"], (motion, seed, hips)
        # ...and a foot stays planted from frame to frame all through the turn.
        feet = [_feet(renderer, i) for i in window]
        for a, b in itertools.pairwise(feet):
            assert min(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1.0, (motion, camera, seed, feet)
