"""The understanding chips' facts and the word fixes (no widgets needed)."""

from __future__ import annotations

from studio.core.instruction import parse_instruction
from studio.core.model import Take
from studio.ui.inspector.understanding import ChipField, suggestions, understanding_chips, warning_field


def _take(**conditioning: object) -> Take:
    return Take(id="t", node_id="n", engine="sketch", motion_level=4, conditioning=conditioning,
                warnings=("'juggle' unknown, shown as 'wave'", "'Momo' not in the cast, drawn with a generated look"))


def test_chips_name_what_the_engine_used_and_each_warning() -> None:
    ins = parse_instruction("Character: Momo; Motion: quickly juggle; Background: town; Time: midnight")
    chips = understanding_chips(ins, _take(character="Momo", motion="wave", location="town", time_of_day="night",
                                           camera="follow"))
    texts = [c.text for c in chips]
    assert texts[:6] == ["character: Momo", "motion: wave", "place: town", "time: night (midnight)",
                         "camera: follow", "level 4 · lively"]
    warnings = [c for c in chips if c.warning]
    assert [c.field for c in warnings] == [ChipField.MOTION, ChipField.CHARACTER]
    assert warnings[0].word == "juggle"
    assert "midnight" in chips[3].tooltip and "night" in chips[3].tooltip
    assert understanding_chips(ins, None) == []


def test_warning_fields_and_suggestions() -> None:
    ins = parse_instruction("Character: Qiqi; Motion: run; Background: moon base; Camera: wobble")
    assert warning_field("'moon base' unknown, shown as 'town'", ins) is ChipField.PLACE
    assert warning_field("'wobble' unknown, shown as 'static'", ins) is ChipField.CAMERA
    assert warning_field("something odd happened", ins) is ChipField.OTHER
    assert suggestions("runn", ["walk", "run", "jump", "ran"])[:2] == ["run", "ran"]


def test_replace_field_keeps_the_other_fields() -> None:
    from studio.ui.inspector.chips_view import replace_field

    ins = parse_instruction("Character: Qiqi; Motion: gently juggle; Background: dawn park; Mood: happy")
    fixed = parse_instruction(replace_field(ins, ChipField.MOTION, "wave"))
    assert (fixed.character, fixed.adverb, fixed.motion, fixed.background, fixed.time_of_day) == (
        "Qiqi", "gently", "wave", "park", "dawn")
    assert dict(fixed.extra) == {"mood": "happy"}
    assert parse_instruction(replace_field(ins, ChipField.TIME, "night")).time_of_day == "night"
    assert parse_instruction(replace_field(ins, ChipField.LEVEL, "quickly")).adverb == "quickly"
