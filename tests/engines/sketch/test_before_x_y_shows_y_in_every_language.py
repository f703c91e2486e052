""""Before X, Y" shows Y, the action done first, in English, Japanese, Chinese and Korean.

English "Before she runs, Qiqi stretches" showed the stretch, but "走る前に、ストレッチする",
"跑步之前，她伸展" and "달리기 전에 스트레칭한다" showed the run, the first named; a Motion
field that opened with such a clause ("before running, stretch") showed the run too. The main
clause is now shown in all four, in free text and in the Motion field, as "After X, Y" is."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import main_clause_first, read_turn

from ..sketch_helpers import SMALL, predict

LEFT_OUT = "several motions named, shown as '{}'; left out '{}' (a clip shows one motion)"


@pytest.mark.parametrize("text", [
    "Before she runs, Qiqi stretches",
    "走る前に、ストレッチする",
    "Qiqiは走る前にストレッチする",
    "跑步之前，她伸展",
    "跑步前，Qiqi伸展",
    "달리기 전에 스트레칭한다",
    "Qiqi는 달리기 전에 스트레칭한다",
    "Character: Qiqi; Motion: before running, stretch",
    "Character: Qiqi; Motion: 走る前に、ストレッチする",
    "角色：Qiqi；动作：跑步之前伸展",
    "Character: Qiqi; Motion: 달리기 전에 스트레칭",
])
def test_before_running_stretching_stretches(text: str) -> None:
    reading = read_turn(parse_instruction(text), names=("Qiqi",))
    assert reading.motion.name == "stretch"
    assert LEFT_OUT.format("stretch", "run") in reading.warnings


@pytest.mark.parametrize("text", [
    "Before lunch, Qiqi runs", "昼ご飯の前に、走る", "午饭之前，Qiqi跑步", "점심 전에 달린다"])
def test_before_a_meal_the_run_is_shown(text: str) -> None:
    assert read_turn(parse_instruction(text), names=("Qiqi",)).motion.name == "run"


@pytest.mark.parametrize("text", ["走る前に、ストレッチする", "跑步之前，她伸展", "달리기 전에 스트레칭한다",
                                  "Before she runs, Qiqi stretches"])
def test_the_clip_shows_the_stretch(text: str) -> None:
    take = predict(SketchEngine(), text, seed=3, settings=SMALL)
    assert take.conditioning["motion"] == "stretch"


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: before running, stretch", "Before running, Qiqi stretches."),
    ("Character: Qiqi; Motion: 走る前に、ストレッチする", "Qiqiは走る前に、ストレッチする。"),
    ("角色：Qiqi；动作：跑步之前伸展", "Qiqi跑步之前伸展。"),
    ("Character: Qiqi; Motion: 달리기 전에 스트레칭", "Qiqi는 달리기 전에 스트레칭한다."),
])
def test_the_caption_keeps_the_order_written(text: str, said: str) -> None:
    assert describe_action(parse_instruction(text)) == said


@pytest.mark.parametrize(("text", "read"), [
    ("run 前に、 stretch する", "stretch する , before run"),
    ("run 之前,她 stretch", "她 stretch , before run"),
    ("run 전에 stretch", "stretch , before run"),
    ("名前に run", "名前に run"),  # a name, not "before"
    ("门前,她 stretch", "门前,她 stretch"),  # in front of the door, not "before"
])
def test_main_clause_first_reads_before(text: str, read: str) -> None:
    assert main_clause_first(text) == read
