"""'Qiqi eats lunch on a bench' draws the bench and Qiqi eating on it, legs hanging from the seat.

Only 'sit' drew a seat: eating, reading, drinking or talking on a bench, a sofa or a chair drew
the character standing, with no seat. The motion keeps its name; the seat is drawn under the
character, whose hips rest on it while the arms do the motion. Motions that can't be done
seated keep standing, with no seat. Measured on rendered frames: the seat's pixels are those
that change when the same clip is drawn without it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.engines.sketch import SketchEngine
from studio.engines.sketch.poses import ON_SEAT, SEAT_TOP, sample_pose
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning
from studio.engines.sketch.skeleton import HIP_HEIGHT

from .seat_helpers import LAST, seat_mask, still


@pytest.mark.parametrize(("text", "motion", "seat"), [
    ("Qiqi eats lunch on a bench", "eat", "bench"),
    ("Aoi reads a book on the sofa in the library", "read", "sofa"),
    ("Taro drinks tea on a chair in the cafe", "drink", "chair"),
    ("Qiqi talks with Yuzu on the bench", "talk", "bench"),
    ("Sosuke laughs on a stool in the kitchen", "laugh", "stool"),
    ("Qiqi waves from the swing in the park", "wave", "swing"),
    ("Aoi writes a letter at her seat in the classroom", "write", "chair"),
])
def test_the_seated_motion_is_done_on_the_seat(engine: SketchEngine, text: str, motion: str, seat: str) -> None:
    for seed in range(2):
        cond = still(text, engine, seed)
        assert (cond["motion"], cond["seat"]) == (motion, seat), text
        plan = plan_from_conditioning(cond)
        renderer = ClipRenderer(plan)
        mask = seat_mask(cond)
        assert mask.sum() > 100, (text, seed, "the seat is drawn")
        x, _, pose = renderer.placement(LAST)
        unit = renderer.scale
        cols = np.nonzero(mask)[1]
        assert cols.min() < x < cols.max(), (text, seed, "under the character")
        hip = renderer.surface_at(1.0) - (HIP_HEIGHT + pose.y) * unit
        assert abs(hip - (renderer.ground_y - SEAT_TOP * unit)) < 0.02 * unit, (text, seed, "hips on the seat")
        assert (pose.leg_f, pose.knee_f) == (ON_SEAT["leg_f"], ON_SEAT["knee_f"]), (text, "legs hanging")
        # The upper body does the motion, as it would standing.
        standing = sample_pose(replace(plan.pose_plan, seated=False), 1.0)
        assert (pose.arm_f, pose.elbow_f, pose.head_tilt) == (standing.arm_f, standing.elbow_f, standing.head_tilt)


def test_a_friend_eats_on_the_same_bench(engine: SketchEngine) -> None:
    cond = still("Qiqi eats lunch with Yuzu on the bench in the park", engine)
    assert (cond["motion"], cond["seat"], cond["companion"]) == ("eat", "bench", "Yuzu")
    renderer = ClipRenderer(plan_from_conditioning(cond))
    assert renderer.companion_spec is not None and renderer.companion_spec.anim == "eat"
    cols = np.nonzero(seat_mask(cond))[1]
    x = renderer.placement(LAST)[0]
    friend = renderer.companion_x(renderer.hip_screen_x(1.0), 1.0)
    assert cols.min() < min(x, friend) and max(x, friend) < cols.max(), "one bench under both"


def test_a_friend_drinks_on_a_chair_of_their_own(engine: SketchEngine) -> None:
    cond = still("Aoi drinks tea with Taro on chairs in the cafe", engine)
    assert (cond["seat"], cond["companion"]) == ("chair", "Taro")
    renderer = ClipRenderer(plan_from_conditioning(cond))
    mask = seat_mask(cond)
    x = renderer.placement(LAST)[0]
    friend = renderer.companion_x(renderer.hip_screen_x(1.0), 1.0)
    middle = (x + friend) / 2
    cols = np.nonzero(mask)[1]
    near_me = cols[np.abs(cols - x) < np.abs(cols - friend)]
    near_friend = cols[np.abs(cols - friend) < np.abs(cols - x)]
    assert near_me.size > 100 and near_friend.size > 100, "a chair each"
    assert not mask[:, round(middle)].any(), "the two chairs stand apart"


@pytest.mark.parametrize("text", ["Qiqi dances on the bench", "Qiqi jumps on the sofa", "Qiqi runs to the bench",
                                  "Qiqi walks past a bench in the park", "Qiqi stands on a chair and waves"])
def test_motions_not_done_seated_draw_no_seat(engine: SketchEngine, text: str) -> None:
    cond = still(text, engine)
    assert cond["seat"] == "", text
    plan = plan_from_conditioning(cond)
    assert plan.seat == "" and not plan.pose_plan.seated
    assert sample_pose(plan.pose_plan, 1.0).y > -0.1, "standing"
