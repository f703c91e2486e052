import pytest

from studio.core.instruction import (
    MAX_INSTRUCTION_CHARS,
    InstructionError,
    parse_instruction,
    validate_instruction_text,
)


def test_animegamer_line():
    ins = parse_instruction("Character: Qiqi; Motion: gently sit on railing; Background: day town.")
    assert (ins.character, ins.motion, ins.adverb, ins.background, ins.time_of_day) == (
        "Qiqi", "sit on railing", "gently", "town", "day")
    assert ins.free_text == ""


@pytest.mark.parametrize("text", [
    "Background: night  street ; motion:quickly run ;CHARACTER: Sosuke",
    "character:Sosuke;motion: quickly run;background: night street.",
    "  Motion :  quickly   run;  Character: Sosuke ; Background : street ; Time: night  ",
])
def test_any_order_spacing_case_and_missing_period(text):
    ins = parse_instruction(text)
    assert ins.character == "Sosuke"
    assert ins.motion == "run"
    assert ins.adverb == "quickly"
    assert ins.background == "street"
    assert ins.time_of_day == "night"
    assert ins.raw == text


def test_extra_fields_and_camera():
    ins = parse_instruction("Character: Qiqi; Motion: wave; Background: beach; Camera: Orbit; Mood: happy; Time: dusk")
    assert ins.camera == "orbit"
    assert ins.time_of_day == "dusk"  # the author's word is kept; engines draw it as sunset
    assert dict(ins.extra) == {"mood": "happy"}
    assert ins.fields()["mood"] == "happy"


def test_free_text_kept():
    ins = parse_instruction("Qiqi runs through the town at night")
    assert ins.free_text == "Qiqi runs through the town at night"
    assert ins.motion == ""
    mixed = parse_instruction("Character: Qiqi; she is late for work")
    assert mixed.character == "Qiqi" and mixed.free_text == "she is late for work"


def test_validation_limits():
    with pytest.raises(InstructionError, match="empty"):
        validate_instruction_text("   \n ")
    validate_instruction_text("x" * MAX_INSTRUCTION_CHARS)
    with pytest.raises(InstructionError, match="limit is 2,000"):
        validate_instruction_text("x" * (MAX_INSTRUCTION_CHARS + 1))


def test_never_raises_on_odd_text():
    for text in ["", ";;;", ":", "Character:", "🙂🙂; Motion: 走る", "שלום: עולם", "a" * 10000]:
        assert parse_instruction(text).raw == text


def test_demo_file_parses_every_field(demo_file):
    lines = [line for line in demo_file.read_text().splitlines() if line.strip()]
    assert len(lines) == 8
    for line in lines:
        ins = parse_instruction(line)
        assert ins.character == "Qiqi"
        assert ins.motion and ins.adverb and ins.background and ins.time_of_day in {"day", "night"}


@pytest.mark.parametrize("background,place,time", [
    ("volcano at night", "volcano", "night"),
    ("at dusk in the park", "park", "dusk"),
    ("night sky", "sky", "night"),
    ("the old station", "the old station", ""),
])
def test_time_of_day_split_from_background(background, place, time):
    ins = parse_instruction(f"Character: Qiqi; Motion: walk; Background: {background}")
    assert (ins.background, ins.time_of_day) == (place, time)


@pytest.mark.parametrize(("text", "word", "shown"), [
    ("Character: Qiqi; Motion: walk; Time: dawn", "dawn", "sunset"),
    ("Character: Qiqi; Motion: walk; Background: morning park", "morning", "day"),
    ("Character: Qiqi; Motion: walk; Background: park at midnight", "midnight", "night"),
    ("Character: Qiqi; Motion: walk; Time: Noon", "noon", "day"),
    ("Character: Qiqi; Motion: walk; Time: evening", "evening", "sunset"),
])
def test_time_keeps_the_authors_word_and_maps_it_with_a_note(text, word, shown):
    from studio.core.instruction import time_note, time_shown

    ins = parse_instruction(text)
    assert ins.time_of_day == word
    assert time_shown(word) == shown
    assert word in time_note(word) and shown in time_note(word)


def test_time_note_is_empty_for_drawn_times_and_plain_for_unknown_words():
    from studio.core.instruction import TIME_CHOICES, time_note, time_shown

    assert [time_note(t) for t in ("day", "sunset", "night", "")] == ["", "", "", ""]
    assert "not a time of day" in time_note("teatime") and time_shown("teatime") == ""
    assert all(time_shown(t) for t in TIME_CHOICES)


def test_a_field_given_twice_is_refused_by_name_and_read_as_the_later():
    with pytest.raises(InstructionError, match=r"gives its character twice \('Character: Qiqi' and 'who: Mei'\)"):
        validate_instruction_text("Character: Qiqi; Motion: wave; who: Mei")
    with pytest.raises(InstructionError, match="gives its place twice") as raised:
        validate_instruction_text("Background: town; Motion: run; Place: beach")
    assert "a turn has one place." in (raised.value.hint or "")
    validate_instruction_text("Character: Qiqi; Motion: ; Motion: run; Background: night town; Time: night")
    assert parse_instruction("Character: Qiqi; Character: Mei").character == "Mei"  # text stored before the check
    assert parse_instruction("Motion: run; Motion: ").motion == "run"


def test_two_times_of_day_are_refused_unless_they_agree():
    with pytest.raises(InstructionError, match=r"two times of day: 'day' in 'Background: day town' and 'Time: night'"):
        validate_instruction_text("Character: Qiqi; Background: day town; Time: night")
    validate_instruction_text("Background: night town; Time: night")
    validate_instruction_text("Background: sunset beach; Time: dusk")  # both drawn as sunset
    validate_instruction_text("Background: town; Time: night")


def test_japanese_field_names():
    ins = parse_instruction("キャラクター：美咲；動作：手を振る；背景：夜の街；カメラ: orbit")
    assert (ins.character, ins.motion, ins.background, ins.camera, ins.free_text) == (
        "美咲", "手を振る", "夜の街", "orbit", "")
    assert parse_instruction("人物: Qiqi; Motion: wave; 時間帯: night").time_of_day == "night"
    assert parse_instruction("彼女は言った：こんにちは").free_text == "彼女は言った：こんにちは"  # not a field name
    with pytest.raises(InstructionError, match="gives its character twice"):
        validate_instruction_text("キャラクター: 美咲; Character: Mei")


def test_free_text_keeps_the_clause_boundaries_it_was_split_at():
    """Semicolons and line breaks end a part; free text joined back with bare spaces ran one
    clause into the next, so a negation reached past its own ("doesn't run; she laughs" was idle)."""
    from studio.engines.sketch.understanding import read_instruction

    assert parse_instruction("Qiqi doesn't run; she laughs").free_text == "Qiqi doesn't run; she laughs"
    assert parse_instruction("Qiqi waits\nthen she laughs").free_text == "Qiqi waits; then she laughs"
    assert parse_instruction("Character: Qiqi; she is late; Motion: run").free_text == "she is late"
    reading = read_instruction(parse_instruction("Qiqi doesn't run; she laughs"))
    assert reading.motion.name == "laugh" and reading.warnings == []
