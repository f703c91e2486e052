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
    assert ins.time_of_day == "sunset"
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
    ("at dusk in the park", "park", "sunset"),
    ("night sky", "sky", "night"),
    ("the old station", "the old station", ""),
])
def test_time_of_day_split_from_background(background, place, time):
    ins = parse_instruction(f"Character: Qiqi; Motion: walk; Background: {background}")
    assert (ins.background, ins.time_of_day) == (place, time)
