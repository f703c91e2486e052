"""A seed changes what an author sees in a sketch take: pose timing, framing, small props."""

from __future__ import annotations

import numpy as np

from studio.engines.sketch.render import plan_from_conditioning
from studio.engines.sketch.variation import FRAMINGS, SmallProp, variation_for, variation_from

from .sketch_helpers import predict, render

LINE = "Character: Qiqi; Motion: walk; Background: day town."
VISIBLE = ("tempo", "lead", "framing", "props")


def _visible(cond):  # type: ignore[no-untyped-def]
    return tuple(str(cond[key]) for key in VISIBLE)


def test_same_seed_gives_the_same_take(engine) -> None:  # type: ignore[no-untyped-def]
    (a, clip_a), (b, clip_b) = render(engine, LINE, seed=11), render(engine, LINE, seed=11)
    assert a.conditioning == b.conditioning
    assert np.array_equal(clip_a.frames, clip_b.frames)


def test_seeds_differ_in_timing_framing_and_props(engine) -> None:  # type: ignore[no-untyped-def]
    conds = [predict(engine, LINE, seed=seed).conditioning for seed in range(12)]
    assert len({c["tempo"] for c in conds}) == 12, "every seed gets its own rhythm"
    assert {c["framing"] for c in conds} == set(FRAMINGS), "wide, medium and close shots all occur"
    assert len({str(c["props"]) for c in conds}) >= 8
    assert any(c["props"] for c in conds) and any(not c["props"] for c in conds)
    # Two seeds: different parameters and visibly different frames.
    (a, clip_a), (b, clip_b) = render(engine, LINE, seed=1), render(engine, LINE, seed=2)
    assert _visible(a.conditioning) != _visible(b.conditioning)
    diff = np.abs(clip_a.frames.astype(int) - clip_b.frames.astype(int)).mean()
    assert diff > 3.0, f"takes of two seeds should look different, mean pixel difference {diff:.2f}"


def test_sky_scenes_get_no_ground_props_and_rooms_no_birds() -> None:
    assert all(not variation_for(seed, sky=True).props for seed in range(30))
    indoor = [p.kind for seed in range(60) for p in variation_for(seed, indoor=True).props]
    assert indoor and SmallProp.BIRD not in indoor


def test_a_take_made_before_variation_renders_as_before(engine) -> None:  # type: ignore[no-untyped-def]
    pred = predict(engine, LINE, seed=5)
    old = {k: v for k, v in pred.conditioning.items() if k not in VISIBLE}
    plan = plan_from_conditioning(old)
    assert (plan.framing, plan.props, plan.pose_plan.tempo, plan.pose_plan.lead) == (1.0, (), 1.0, 0.0)


def test_bad_stored_values_are_clamped_or_dropped() -> None:
    got = variation_from({"tempo": "fast", "framing": 9, "lead": -1,
                          "props": [{"kind": "dragon", "x": 0}, {"kind": "stone", "x": 5, "size": 0}, "x"]})
    assert (got.tempo, got.framing, got.lead) == (1.0, 1.5, 0.0)
    assert [(p.kind, p.x, p.size) for p in got.props] == [(SmallProp.STONE, 1.0, 0.3)]
