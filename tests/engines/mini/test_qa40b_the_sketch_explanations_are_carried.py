"""Where the mini draws the sketch's reading of a motion, it carries the sketch's explanations of
it: "several motions named, shown as 'run'; left out 'jump'" and "'doesn't run' is a motion not
done, shown as 'idle'". Before, the mini dropped them (12 turns of the first, 5 of 7 of the second)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.rephrase import rephrase
from tests.engines.mini.qa40b_shipped import CAST, predict, shipped_engine, sketch

TURNS = [
    ("Qiqi runs and jumps in the park", "several motions named, shown as 'run'; left out 'jump' (a clip shows one "
                                        "motion)"),
    ("Character: Qiqi; Motion: run and jump", "several motions named, shown as 'run'; left out 'jump' (a clip shows "
                                              "one motion)"),
    ("Qiqi doesn't run", "'doesn't run' is a motion not done, shown as 'idle'"),
    ("Qiqi never dances at the beach", "'never dances' is a motion not done, shown as 'idle'"),
    ("Character: Yuzu; Motion: doesn't jump", "'doesn't jump' is a motion not done, shown as 'idle'"),
]


@pytest.mark.parametrize(("text", "warning"), TURNS)
def test_the_rephrased_turn_carries_the_sketch_explanation(text: str, warning: str) -> None:
    assert warning in rephrase(parse_instruction(text), CAST).warnings


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


@pytest.mark.parametrize(("text", "warning"), TURNS)
def test_the_take_says_what_the_sketch_says_of_the_motion(engine, text: str, warning: str) -> None:  # type: ignore[no-untyped-def]
    prediction, drawn = predict(engine, text), sketch(text)
    assert warning in drawn.warnings
    assert prediction.conditioning["motion"] == drawn.conditioning["motion"]
    assert prediction.warnings.count(warning) == 1, prediction.warnings
