"""Words neither engine knows are drawn as the sketch world reads them, and the deltas follow the
motion drawn. Before, the mini LM chose a motion itself for them, with deltas the world's rules
forbid for it: "Qiqi and Sosuke argue loudly in the classroom" flew on a broomstick, "Character:
Taro; Motion: skateboard" talked with social +4 alone, an empty Motion field ate, "qiqi slepps"
clapped, and "Motion: doesn't move" idled with the mini's own warning (not the sketch's).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from studio.core.instruction import parse_instruction
from studio.core.state import CharacterState
from studio.engines.mini.rephrase import rephrase, unlearnt
from studio.engines.mini.world_rules import within_world, world_range
from tests.engines.mini.qa40b_shipped import CAST, predict, shipped_engine, sketch


@pytest.mark.parametrize(("text", "read", "warning"), [
    ("Qiqi and Sosuke argue loudly in the classroom", "Qiqi idles in the classroom",
     "no motion found in 'Qiqi and Sosuke argue loudly in the cla…', shown as 'idle'"),
    ("Qiqi rides a horse across the field", "Qiqi idles in the countryside",
     "no motion found in 'Qiqi rides a horse across the field', shown as 'idle'"),
    ("qiqi slepps", "Qiqi sleeps", "'slepps' unknown, shown as 'sleep'"),  # a typo after a lower-case name
    ("Qiqi xyzzy", "Qiqi idles", "no motion found in 'Qiqi xyzzy', shown as 'idle'"),
    ("Qiqi is at the shop", "Qiqi idles in the bakery", "no motion found in 'Qiqi is at the shop', shown as 'idle'"),
    ("Character: Taro; Motion: skateboard", "Character: Taro; Motion: idle", "'skateboard' unknown, shown as 'idle'"),
    ("Motion: xyzzy; Background: qwerty", "Motion: idle; Background: qwerty", "'xyzzy' unknown, shown as 'idle'"),
    ("Character: Qiqi; Motion: doesn't move", "Character: Qiqi; Motion: idle",
     "'doesn't move' is a motion not done, shown as 'idle'"),
    ("Character: Qiqi; Motion: quickly", "Character: Qiqi; Motion: quickly idle",
     "'quickly' says how but names no motion, shown as 'idle'"),
])
def test_the_lm_is_told_the_motion_the_sketch_draws(text: str, read: str, warning: str) -> None:
    rephrased = rephrase(parse_instruction(text), CAST)
    assert rephrased.instruction.raw == read
    assert warning in rephrased.warnings
    assert not unlearnt(read.replace("qwerty", ""), CAST)


@pytest.mark.parametrize("text", ["Character: Qiqi; Motion: ; Background: library", "Character: Qiqi"])
def test_a_turn_with_no_motion_given_is_told_the_idle(text: str) -> None:
    rephrased = rephrase(parse_instruction(text), CAST)
    assert parse_instruction(rephrased.instruction.raw).motion == "idle"
    assert rephrased.warnings == ("no motion given, shown as 'idle'",)


def test_the_world_range_is_the_rule_one_step_either_way() -> None:
    state = CharacterState(50, 50, 50)
    # the idle restores 2 stamina and costs 1 entertainment; it gives no social
    assert world_range("idle", 1, "library", "day", state) == ((1, 3), (0, 0), (-2, -1))
    assert within_world((4, 3, 1), world_range("idle", 1, "library", "day", state)) == (3, 0, -1)
    # a talk with someone at a busy place: social 3 + 1 + 1
    assert world_range("talk", 2, "cafe", "day", state, together=True)[1] == (4, 5)
    # a full stat gains at most +1
    assert world_range("dance", 3, "park", "day", CharacterState(50, 95, 95))[1:] == ((1, 1), (1, 1))
    assert world_range("no such motion", 1, "park", "day", state) is None


# through the shipped checkpoint -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


ABSURD = ["Qiqi and Sosuke argue loudly in the classroom", "Qiqi rides a horse across the field",
          "Character: Taro; Motion: skateboard", "Character: Qiqi; Motion: ; Background: library", "qiqi slepps",
          "Character: Qiqi; Motion: doesn't move", "Qiqi is fishing at the river"]


@pytest.mark.parametrize("text", ABSURD)
def test_the_model_draws_what_the_sketch_reads_with_its_warning(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    prediction, drawn = predict(engine, text), sketch(text)
    assert prediction.conditioning["motion"] == drawn.conditioning["motion"]
    told = [w for w in drawn.warnings if "shown as" in w and "' is not drawn" not in w]
    assert told and set(told) <= set(prediction.warnings), (prediction.warnings, drawn.warnings)
    assert not any("it chooses one itself" in w or "is not a motion the mini model learnt" in w
                   for w in prediction.warnings), prediction.warnings
    assert len(set(prediction.warnings)) == len(prediction.warnings), prediction.warnings


@pytest.mark.parametrize("text", ABSURD)
def test_the_deltas_lie_in_the_world_range_of_the_motion_drawn(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    state = CharacterState(50, 50, 50)
    for seed in range(3):
        prediction = predict(engine, text, state, seed, temperature=1.0)
        drawn = prediction.conditioning
        ranges = world_range(drawn["motion"], prediction.motion_level, drawn["location"], drawn["time_of_day"], state,
                             together=any("' is not drawn" in w for w in prediction.warnings))
        assert ranges is not None
        deltas = (prediction.deltas.stamina, prediction.deltas.social, prediction.deltas.entertainment)
        assert within_world(deltas, ranges) == deltas, (text, seed, drawn["motion"], deltas, ranges)


def test_deltas_the_rules_forbid_for_the_motion_drawn_are_held_to_its_range(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The LM's deltas are those of the words it read; held to the range of the motion it drew."""
    runtime = engine._runtime
    real = runtime.predict

    def wild(queries, **kwargs):  # type: ignore[no-untyped-def]
        return [dataclasses.replace(out, deltas=(5, 5, 5)) for out in real(queries, **kwargs)]

    monkeypatch.setattr(runtime, "predict", wild)
    prediction = predict(engine, "Character: Qiqi; Motion: doesn't move; Background: library")
    assert prediction.conditioning["motion"] == "idle"
    assert (prediction.deltas.stamina, prediction.deltas.social, prediction.deltas.entertainment) == (3, 0, -1)
    assert np.isfinite(prediction.representation).all()
