"""Each field of an instruction is held to a reading limit of its own, counted in the
characters a reader sees, and every cut is said.

An English Motion of more than 400 characters written beside a Japanese Background was cut
without a word: the limit was applied once the Japanese was put into English, so the cut
field no longer looked too long. :func:`read_within` applies the limit to each field as
written, never cuts inside an emoji or an accented letter, names each field it cuts (by its
key as the author typed it) and the limit, and leaves the instruction's text whole.
"""

from __future__ import annotations

import time

from studio.core.graphemes import first_graphemes, grapheme_count
from studio.core.instruction import parse_instruction, read_within

LIMIT = 400
LONG_MOTION = " ".join(["Qiqi runs quickly across the wide open field"] * 10)  # 449 characters
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # one character a reader sees, five code points
THUMB = "\U0001F44D\U0001F3FD"  # a thumbs-up with a skin tone: one character, two code points


def test_a_long_english_field_beside_a_japanese_one_is_cut_and_said() -> None:
    raw = f"キャラクター：美咲；Motion: {LONG_MOTION}；背景：公園"
    instruction = parse_instruction(raw)
    assert instruction.motion == LONG_MOTION  # the parsed instruction holds all of it

    read, cuts = read_within(instruction, LIMIT)

    assert [(cut.field, cut.written_key, cut.length, cut.limit) for cut in cuts] == [
        ("motion", "Motion", len(LONG_MOTION), LIMIT)]
    assert read.motion == LONG_MOTION[:LIMIT].rstrip()
    assert read.background == "公園" and read.character == "美咲"
    assert read.raw == raw  # nothing the author wrote is lost
    warning = cuts[0].warning
    assert "Motion field" in warning and f"{len(LONG_MOTION):,} characters" in warning and "400" in warning


def test_a_japanese_field_is_named_as_written() -> None:
    motion = "走る" * 250  # 500 characters
    read, cuts = read_within(parse_instruction(f"キャラクター：美咲；動作：{motion}；Background: park"), LIMIT)
    assert [cut.written_key for cut in cuts] == ["動作"]
    assert "the 動作 field is 500 characters long" in cuts[0].warning
    assert read.motion == motion[:LIMIT] and read.background == "park"


def test_each_field_has_its_own_limit_whatever_its_language() -> None:
    # 390 + 390 characters: the whole is longer than one field's limit, yet no field is.
    motion, place = "a" * 390, "公" * 390
    instruction = parse_instruction(f"Motion: {motion}; 背景：{place}")
    read, cuts = read_within(instruction, LIMIT)
    assert cuts == ()
    assert read.motion == motion and read.background == place


def test_the_limit_counts_what_a_reader_sees_and_never_splits_an_emoji() -> None:
    exactly = THUMB * LIMIT  # 400 characters, 800 code points: within the limit
    read, cuts = read_within(parse_instruction(f"Character: Qiqi; Motion: wave {exactly}"), LIMIT)
    assert len(cuts) == 1 and cuts[0].length == LIMIT + 5  # "wave " and the 400 thumbs
    assert read.motion.endswith(THUMB) and grapheme_count(read.motion) == LIMIT

    at_the_edge = "a" * (LIMIT - 1) + FAMILY + "b"
    read, cuts = read_within(parse_instruction(f"Motion: {at_the_edge}"), LIMIT)
    assert read.motion == "a" * (LIMIT - 1) + FAMILY  # the family whole, its joiners kept
    assert cuts[0].length == LIMIT + 1

    read, cuts = read_within(parse_instruction(f"Motion: {THUMB * LIMIT}"), LIMIT)
    assert cuts == () and read.motion == THUMB * LIMIT


def test_free_text_and_extra_fields_are_held_to_the_limit_too() -> None:
    prose = "Qiqi walks along the river and looks at the boats " * 12
    read, cuts = read_within(parse_instruction(prose), LIMIT)
    assert [cut.field for cut in cuts] == ["free text"] and "the free text is" in cuts[0].warning
    assert grapheme_count(read.free_text) <= LIMIT

    read, cuts = read_within(parse_instruction(f"Character: Qiqi; Mood: {'happy ' * 100}"), LIMIT)
    assert [(cut.field, cut.written_key) for cut in cuts] == [("mood", "Mood")]
    assert len(read.extra[0][1]) <= LIMIT


def test_a_pasted_100_kb_text_is_read_quickly_and_kept_whole() -> None:
    pasted = "Qiqi runs to the station, 駅まで走る, and waves 👋🏾 at the train. " * 1700  # over 100 KB
    assert len(pasted.encode("utf-8")) > 100_000
    started = time.perf_counter()
    instruction = parse_instruction(f"Character: Qiqi; Motion: {pasted}")
    read, cuts = read_within(instruction, LIMIT)
    assert time.perf_counter() - started < 2.0
    assert read.raw == instruction.raw and pasted.strip() in instruction.raw
    as_read = " ".join(pasted.split()).rstrip(".")  # one space between words, no closing full stop
    assert [cut.field for cut in cuts] == ["motion"] and cuts[0].length == grapheme_count(as_read)
    assert grapheme_count(read.motion) <= LIMIT


def test_first_graphemes_keeps_whole_characters() -> None:
    text = "か\u3099" + THUMB + FAMILY + "\U0001F1EF\U0001F1F5"  # が by a combining mark, a thumb, a family, a flag
    assert grapheme_count(text) == 4
    assert [first_graphemes(text, n) for n in range(1, 5)] == [
        "か\u3099", "か\u3099" + THUMB, "か\u3099" + THUMB + FAMILY, text]
    assert first_graphemes(text, 0) == "" and first_graphemes(text, 10) == text
