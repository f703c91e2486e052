"""People write commas between fields: ``Character: Qiqi, Motion: run, Background: day town``
was read as a character named "Qiqi, Motion: run, Background: day town" who idled. A comma
followed by a known field key and its colon now ends a field as a semicolon does; any other
comma stays in the value or the free text."""

from __future__ import annotations

import pytest

from studio.core.instruction import InstructionError, field_spans, parse_instruction, validate_instruction_text


def test_commas_between_fields_split_them() -> None:
    ins = parse_instruction("Character: Qiqi, Motion: run, Background: day town")
    assert (ins.character, ins.motion, ins.background, ins.time_of_day) == ("Qiqi", "run", "town", "day")
    assert ins.free_text == "" and ins.extra == ()


@pytest.mark.parametrize("text", [
    "character: Qiqi,motion: quickly run,  TIME  OF  DAY : night, BG: street.",
    "Motion: quickly run ，Character: Qiqi、 where : night street",
])
def test_any_key_the_parser_knows_in_any_case_and_comma(text: str) -> None:
    ins = parse_instruction(text)
    assert (ins.character, ins.motion, ins.adverb, ins.background, ins.time_of_day) == (
        "Qiqi", "run", "quickly", "street", "night")


def test_commas_inside_values_and_free_text_are_kept() -> None:
    ins = parse_instruction("Character: Qiqi; Motion: waves, smiling and laughing; Background: park")
    assert (ins.motion, ins.background) == ("waves, smiling and laughing", "park")
    free = parse_instruction("Qiqi runs, fast, through the park, Moody: very")
    assert free.free_text == "Qiqi runs, fast, through the park, Moody: very" and free.character == ""
    assert parse_instruction("Character: Qiqi, Mood: sad").character == "Qiqi, Mood: sad", "unknown keys: text"


def test_field_spans_point_at_the_values_of_the_comma_form() -> None:
    text = "Character: Qiqi, Motion: run, Background: day town."
    spans = field_spans(text)
    assert {name: text[a:b] for name, (a, b) in spans.items()} == {
        "character": "Qiqi", "motion": "run", "background": "day town"}


def test_a_field_given_twice_with_commas_is_refused_as_with_semicolons() -> None:
    with pytest.raises(InstructionError, match="gives its motion twice"):
        validate_instruction_text("Character: Qiqi, Motion: run, motion: walk")
