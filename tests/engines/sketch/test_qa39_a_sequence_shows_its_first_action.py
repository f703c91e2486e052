"""A turn that names actions one after the other ("X then Y", "Xて、Y", "X然后Y") shows the
first, in every language, and says the one left out; it showed the first in English and
Korean, the second in Japanese and Chinese. A sentence that opens with a clause of time
("After running to the station, Qiqi waves") shows its main clause's action."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict

LEFT_OUT = "several motions named, shown as '{}'; left out '{}' (a clip shows one motion)"


@pytest.mark.parametrize("text", [
    "Qiqi runs to the station then waves",
    "Qiqi runs to the station, then waves her hand",
    "駅まで走って、手を振る",
    "跑到车站然后挥手",
    "역까지 달린 다음 손을 흔든다",
])
def test_run_then_wave_runs_in_every_language(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert (reading.motion.name, reading.location) == ("run", "station")
    assert LEFT_OUT.format("run", "wave") in reading.warnings
    take = predict(SketchEngine(), text, seed=2, settings=SMALL)
    assert take.conditioning["motion"] == "run"


@pytest.mark.parametrize("text", [
    "手を振って、駅まで走る", "挥手然后跑到车站", "Qiqi waves her hand, then runs to the station"])
def test_wave_then_run_waves(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name == "wave"
    assert LEFT_OUT.format("wave", "run") in reading.warnings


@pytest.mark.parametrize(("text", "shown", "left_out"), [
    ("After running to the station, Qiqi waves", "wave", "run"),
    ("Before she sleeps, Qiqi reads a book", "read", "sleep"),
    ("Qiqi waves after running to the station", "wave", "run"),
])
def test_the_main_clause_is_shown(text: str, shown: str, left_out: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name == shown
    assert LEFT_OUT.format(shown, left_out) in reading.warnings
