"""A script line spoken by a name nobody in the cast has ('Hana: "I am home"') says so, and
who the turn goes on with, as "Hana waves" does: before, the turn quietly showed the
character of the turn before."""

from __future__ import annotations

from studio.core.instruction import parse_instruction
from studio.core.subject import script_speaker

from .cast_story import add_turn, cast_story


def test_an_unknown_speaker_is_named_with_who_the_turn_shows() -> None:
    document = cast_story()
    assert add_turn(document, "root", "a", "Character: Yuzu; Motion: run; Background: day town") == ""
    warning = add_turn(document, "a", "b", 'Gandalf: "I am home"')
    assert "'Gandalf' is not in the cast" in warning and "the turn shows Yuzu" in warning, warning
    assert "the turn shows Yuzu" in add_turn(document, "b", "c", "Gandalf: \u201cYou shall not pass\u201d")


def test_no_warning_for_a_speaker_in_the_cast_or_a_field_that_is_no_line() -> None:
    document = cast_story()
    assert add_turn(document, "root", "a", 'Aoi: "I am home"') == ""
    assert add_turn(document, "a", "b", 'aoi: "I am home, Yuzu"') == ""
    assert add_turn(document, "b", "c", "Character: Yuzu; Mood: happy") == ""  # an extra field, no line
    assert add_turn(document, "c", "d", 'Character: Hana; Hana: "hi"') == ""  # a Character field: the engine says


def test_the_speaker_is_read_from_script_lines_only() -> None:
    assert script_speaker(parse_instruction('Hana: "I am home"')) == "Hana"
    assert script_speaker(parse_instruction("Character: Aoi; Mood: happy")) == ""
    assert script_speaker(parse_instruction('Someone: "hello"')) == ""  # no name
    assert script_speaker(parse_instruction("Hana: \u300cただいま\u300d")) == "Hana"
