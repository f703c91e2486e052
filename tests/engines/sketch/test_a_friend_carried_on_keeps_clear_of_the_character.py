"""A friend carried on into the next turn doesn't slide through the character on the way.

"Qiqi waves at Yuzu in the park", then "Qiqi walks in the park with Yuzu": Yuzu, facing Qiqi in
front of her, blended into her place behind the walker and passed through Qiqi's body over
several frames. The character now turns so that the friend keeps their side (towards a friend
who will face it, away from one who will come along behind), and a walker the edge of the stage
sends towards the friend has them come along in front. Measured on the drawn figures: each
figure's own silhouette (its sprite's opaque pixels, where the frame pastes it), overlapped.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from PIL import Image

from studio.core.instruction import parse_instruction
from studio.engines.base import GenerationContext, Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.figure import draw_figure
from studio.engines.sketch.render import ClipRenderer, anim_phase, frame_times, plan_from_conditioning
from studio.engines.sketch.skeleton import HIP_HEIGHT

from ..sketch_helpers import as_turn, options
from .seat_helpers import SIZE

BLEND_FRAMES = 3
"""The frames of :data:`SIZE` inside the first third of the clip, where the friend is on the way."""
A_LITTLE = 0.05
"""How much more of the character the friend may cover on the way than where they start or end."""


def _play(engine: SketchEngine, texts: list[str], seed: int) -> list[Prediction]:
    history: list[Any] = []
    out = []
    for i, text in enumerate(texts):
        pred = engine.predict(GenerationContext(history=tuple(history)), parse_instruction(text), options(SIZE),
                              seed + i)
        history.append(as_turn(pred, text))
        out.append(pred)
    return out


def _placed(sprite: Image.Image, anchor: tuple[float, float], x: float, y: float, shape: tuple[int, int]
            ) -> np.ndarray:
    """The opaque pixels of ``sprite`` pasted with its anchor at (x, y), in a frame of ``shape``."""
    mask = np.zeros(shape, dtype=bool)
    alpha = np.asarray(sprite)[..., 3] > 40
    left, top = round(x - anchor[0]), round(y - anchor[1])
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(shape[1], left + alpha.shape[1]), min(shape[0], top + alpha.shape[0])
    if x1 > x0 and y1 > y0:
        mask[y0:y1, x0:x1] = alpha[y0 - top:y1 - top, x0 - left:x1 - left]
    return mask


def _silhouettes(renderer: ClipRenderer, index: int) -> tuple[np.ndarray, np.ndarray]:
    """The character's and the friend's whole figures in frame ``index``, as the frame places them."""
    plan = renderer.plan
    assert renderer.companion_spec is not None
    shape = (plan.height, plan.width)
    t = frame_times(plan.frames)[index]
    seconds = t * plan.duration
    x, facing, pose = renderer.placement(index)
    sprite, anchor = draw_figure(renderer.spec, pose, facing, renderer.scale, anim_phase(plan.pose_plan, t), seconds,
                                 renderer.supersample)
    me = _placed(sprite, anchor, x, renderer.surface_at(t) - (HIP_HEIGHT + pose.y) * renderer.scale, shape)
    spot, pplan = renderer.friend_at(renderer.hip_screen_x(t), t)
    size = renderer.scale * spot.size
    sprite, anchor = draw_figure(renderer.companion_spec, spot.pose, spot.facing, size, anim_phase(pplan, t), seconds,
                                 renderer.supersample)
    friend = _placed(sprite, anchor, spot.x, renderer.ground_y - (HIP_HEIGHT + spot.pose.y) * size, shape)
    return me, friend


@pytest.mark.parametrize(("texts", "seed"), [
    (["Qiqi waves at Yuzu in the park", "Qiqi walks in the park with Yuzu"], 0),
    (["Qiqi talks with Yuzu in the park", "Qiqi runs with Yuzu in the park"], 0),
    (["Qiqi sits on the bench with Yuzu in the park", "Qiqi walks with Yuzu in the park"], 0),
    (["Qiqi walks with Yuzu in the park", "Qiqi dances with Yuzu in the park"], 0),
    (["Qiqi walks with Yuzu in the park", "Qiqi waves at Yuzu in the park"], 1),
    # The run ends at the stage's edge with Yuzu behind: the walk can only go her way.
    (["Qiqi runs with Yuzu in the park, static camera", "Qiqi carries a box with Yuzu in the park, static camera"], 1),
])
def test_the_friend_does_not_pass_through_the_character(engine: SketchEngine, texts: list[str], seed: int) -> None:
    pred = _play(engine, texts, seed)[-1]
    plan = plan_from_conditioning({**pred.conditioning, "framing": 1.0, "shot": 1.0, "props": []})
    assert plan.friend_start is not None, "the friend carries on from the turn before"
    renderer = ClipRenderer(plan)
    alone = ClipRenderer(replace(plan, companion_look=None))
    overlaps = []
    for index in range(plan.frames):
        me, friend = _silhouettes(renderer, index)
        # (The friend's silhouette is where the frame draws them: what the character leaves of it shows.)
        shown = np.abs(renderer.frame(index).astype(np.int16) - alone.frame(index).astype(np.int16)).sum(axis=2) > 30
        assert (shown & friend).sum() > 0.8 * (friend & ~me).sum(), (texts, index)
        overlaps.append(float((me & friend).sum() / me.sum()))
    settled = max(overlaps[0], *overlaps[BLEND_FRAMES:])
    assert max(overlaps[:BLEND_FRAMES]) <= settled + A_LITTLE, (texts, [round(v, 2) for v in overlaps])
