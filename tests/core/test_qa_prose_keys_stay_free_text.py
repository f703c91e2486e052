"""An unknown ``Key: value`` part is an extra field only where the instruction is written as
fields (QA: "Qiqi says: don't cry", "Note: Qiqi runs to the park", "Then: she waves" lost
their text to an extra field, and the sketch engine drew idle, "no motion given")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


@pytest.mark.parametrize(("text", "free", "motion"), [
    ("Qiqi says: don't cry", "Qiqi says: don't cry", "talk"),
    ("Qiqi whispers: come here", "Qiqi whispers: come here", "talk"),
    ("She says: see you", "She says: see you", "talk"),
    ('Qiqi says: "hi"', 'Qiqi says: "hi"', "talk"),
    ("Note: Qiqi runs to the park", "Qiqi runs to the park", "run"),
    ("Then: she waves", "she waves", "wave"),
    ("Suddenly: Qiqi jumps", "Qiqi jumps", "jump"),
    ("Prompt: Qiqi dances on the beach at sunset", "Qiqi dances on the beach at sunset", "dance"),
    ("note : Qiqi sits on a bench.", "Qiqi sits on a bench", "sit"),
])
def test_a_key_in_prose_keeps_its_text_as_free_text(text: str, free: str, motion: str) -> None:
    ins = parse_instruction(text)
    assert (ins.free_text, ins.extra) == (free, ())
    reading = read_instruction(ins)
    assert reading.motion.name == motion
    assert not any("no motion" in warning for warning in reading.warnings)


def test_what_the_sketch_engine_reads_from_a_labelled_sentence() -> None:
    reading = read_instruction(parse_instruction("Note: Qiqi runs to the park at night"))
    assert (reading.motion.name, reading.location, reading.time) == ("run", "park", "night")
    assert reading.warnings == []  # "note" is not read as a motion (it was: 'write')


@pytest.mark.parametrize(("text", "extra"), [
    ("Character: Qiqi; Motion: wave; Background: beach; Mood: happy", {"mood": "happy"}),
    ("Mood: happy; Character: Qiqi; Motion: run", {"mood": "happy"}),
    ("Character: Qiqi, Motion: run; Weather: light rain", {"weather": "light rain"}),
    ("Mood: happy; Weather: rain", {"mood": "happy", "weather": "rain"}),
    ("Character: Qiqi; Motion: run; Note: she is late", {"note": "she is late"}),
    ("Charcter: Qiqi; Motion: run; Background: day town.", {"charcter": "Qiqi"}),
    ('Aoi: "I am home"', {"aoi": '"I am home"'}),
    ("Aoi: \u201cI am home\u201d; Yuzu: \u300cおかえり\u300d",
     {"aoi": "\u201cI am home\u201d", "yuzu": "\u300cおかえり\u300d"}),
])
def test_a_key_written_as_a_field_stays_an_extra_field(text: str, extra: dict[str, str]) -> None:
    ins = parse_instruction(text)
    assert dict(ins.extra) == extra
    assert ins.free_text == ""


def test_animegamer_fields_read_as_before() -> None:
    ins = parse_instruction("Character: Qiqi; Motion: gently sit on railing; Background: day town.")
    assert (ins.character, ins.adverb, ins.motion, ins.background, ins.time_of_day) == (
        "Qiqi", "gently", "sit on railing", "town", "day")
    assert (ins.free_text, ins.extra) == ("", ())


def test_a_sentence_beside_fields_is_free_text_not_a_field() -> None:
    ins = parse_instruction("Qiqi says: don't cry; Time: night")
    assert (ins.free_text, ins.extra, ins.time_of_day) == ("Qiqi says: don't cry", (), "night")
    assert read_instruction(ins).motion.name == "talk"
    led = parse_instruction("Character: Qiqi; Motion: run; Then: she waves")
    assert (led.motion, led.free_text, led.extra) == ("run", "she waves", ())


def test_a_script_line_is_still_spoken_by_its_speaker() -> None:
    from studio.engines.sketch.understanding import speakers

    ins = parse_instruction('Aoi: "I am home"')
    assert speakers(ins) == ["aoi"]
    assert read_instruction(ins).motion.name == "talk"


def test_one_unknown_key_alone_is_prose_and_keeps_every_word() -> None:
    for text in ("Mood: happy", "Aoi: waves at Yuzu"):
        ins = parse_instruction(text)
        assert (ins.free_text, ins.extra) == (text, ())
        assert ins.raw == text


def test_a_long_key_was_and_is_free_text() -> None:
    ins = parse_instruction("Qiqi turns around slowly: surprised")
    assert (ins.free_text, ins.extra) == ("Qiqi turns around slowly: surprised", ())
