"""An instruction naming several motions draws one and says which it drew and which it left out."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.catalog.sketch import VERSION
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_instruction

from .sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_instruction(parse_instruction(text))


def several(reading: Reading) -> list[str]:
    return [w for w in reading.warnings if w.startswith("several motions named")]


def test_the_drawn_motion_and_the_left_out_ones_are_named_in_order() -> None:
    reading = read("she waves and then jumps and sits")
    assert reading.motion.name == "wave"
    assert several(reading) == [
        "several motions named, shown as 'wave'; left out 'jump', 'sit' (a clip shows one motion)"]


@pytest.mark.parametrize(("text", "drawn", "left_out"), [
    ("Qiqi runs and jumps", "run", "'jump'"),
    ("Character: Qiqi; Motion: wave and jump; Background: town", "wave", "'jump'"),
    ("Qiqi sits on the grass and reads", "sit", "'read'"),  # on a bench, the read is done seated
    ("Qiqi looks up and waves", "look around", "'wave'"),
    ("Qiqi doesn't fly, she sits and waves", "sit", "'wave'"),
])
def test_each_way_of_reading_a_motion_reports_the_others(text: str, drawn: str, left_out: str) -> None:
    reading = read(text)
    assert reading.motion.name == drawn
    assert len(several(reading)) == 1, reading.warnings
    assert several(reading)[0].endswith(f"left out {left_out} (a clip shows one motion)")


@pytest.mark.parametrize("text", [
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Qiqi flies on her broomstick over the town",
    "Qiqi sweeps with a broom",
    "Qiqi reads a book",
    "Qiqi says hello",
    "Qiqi jumps and jumps and jumps",
    "Qiqi does not fly, she walks",
])
def test_one_motion_in_many_words_is_not_several(text: str) -> None:
    assert several(read(text)) == []


def test_the_note_reaches_the_prediction_and_the_version_says_so() -> None:
    pred = predict(SketchEngine(), "Qiqi waves and then jumps and sits", settings=SMALL)
    assert pred.conditioning["motion"] == "wave"
    assert any(w.startswith("several motions named, shown as 'wave'") for w in pred.warnings), pred.warnings
    assert VERSION != "1.2.0"


def test_free_text_naming_another_motion_than_the_motion_field_is_said() -> None:
    """"Motion: slowly walk" with "Qiqi waves at Yuzu" in the free text drew the walk and
    left the wave out without a word; the free text agreeing, or adding no motion, says nothing."""
    from studio.core.instruction import parse_instruction
    from studio.engines.sketch.understanding import read_instruction

    reading = read_instruction(parse_instruction("Character: Qiqi; Motion: slowly walk; Qiqi waves at Yuzu"))
    assert reading.motion.name == "walk"
    assert reading.warnings == ["'Qiqi waves at Yuzu' names another motion ('wave'); the Motion field's 'walk' is "
                                "shown"]
    for agreeing in ("Character: Qiqi; Motion: wave; Qiqi waves happily", "Character: Qiqi; Motion: walk; by the sea",
                     "Character: Qiqi; Motion: walk; she does not wave"):
        assert read_instruction(parse_instruction(agreeing)).warnings == [], agreeing
