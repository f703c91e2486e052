"""A long turn written in Japanese is read as far as an English turn of the same length is.

Before, its Japanese words were put into longer English ones and the reader read only the first
400 characters of that English, so a Japanese turn of 185 characters that ends in 走る showed
"no motion found" and stood idle, where an English turn of that length runs."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.japanese import ADVERB_WORDS, CAMERA_WORDS, MOTION_WORDS, PLACE_WORDS, TIME_WORDS, in_english
from studio.engines.sketch.text import MAX_ANALYSED_CHARS, MAX_TRANSLATED_CHARS, analysed_chars
from studio.engines.sketch.understanding import as_read, read_instruction, read_turn

from ..sketch_helpers import SMALL, predict

CAST = (CastMember(id="misaki", name="美咲"),)
FILLER = "夜の港の公園で、朝の森の海辺の町を"
"""Places and times, no motion: each of their words is much longer in English (港 -> harbour)."""
TOO_LONG = f"only its first {MAX_ANALYSED_CHARS} characters were read"


def _play(text: str) -> Prediction:
    return predict(SketchEngine(), text, settings=SMALL, cast=CAST)


def _filler(chars: int) -> str:
    return (FILLER * (chars // len(FILLER) + 1))[:chars]


def test_the_turn_of_the_report_runs() -> None:
    text = _filler(180) + "美咲が走る"
    assert len(text) == 185
    assert len(in_english(parse_instruction(text), ("美咲",)).free_text) > MAX_ANALYSED_CHARS  # longer in English
    prediction = _play(f"キャラクター：美咲；{text}")
    assert prediction.conditioning["motion"] == "run"
    assert prediction.warnings == ()


def test_a_long_motion_field_in_japanese_is_read_to_its_end() -> None:
    prediction = _play(f"キャラクター：美咲；動作：{_filler(300)}美咲が走る；背景：公園")
    assert prediction.conditioning["motion"] == "run"
    assert prediction.warnings == ()


def test_a_japanese_turn_is_read_as_far_as_an_english_one_of_its_length() -> None:
    """Within the first 400 characters as written, the motion is read; past them, in either
    language, it is not, and the turn says so."""
    english_filler = ("the harbour park at night, " * 20)
    inside_ja = _filler(MAX_ANALYSED_CHARS - 5) + "美咲が走る"  # its last character is the 400th
    inside_en = english_filler[:MAX_ANALYSED_CHARS - 5] + " runs"
    past_ja = _filler(MAX_ANALYSED_CHARS + 5) + "美咲が走る"
    past_en = english_filler[:MAX_ANALYSED_CHARS + 5] + " runs"
    for inside in (inside_ja, inside_en):
        prediction = _play(f"キャラクター：美咲；{inside}")
        assert prediction.conditioning["motion"] == "run", inside
        assert not any(TOO_LONG in w for w in prediction.warnings)
    for past in (past_ja, past_en):
        prediction = _play(f"キャラクター：美咲；{past}")
        assert prediction.conditioning["motion"] == "idle", past
        assert any(TOO_LONG in w for w in prediction.warnings), prediction.warnings


def test_a_seat_at_the_end_of_a_long_japanese_turn_is_sat_on() -> None:
    prediction = _play(f"キャラクター：美咲；{_filler(200)}ベンチに座る")
    assert (prediction.conditioning["motion"], prediction.conditioning["seat"]) == ("sit", "bench")


def test_a_place_at_the_end_of_a_long_japanese_background_is_drawn() -> None:
    """The Background field is read as far as written too: a place after a long description."""
    prediction = _play(f"キャラクター：美咲；動作：歩く；背景：{'朝や昼の' * 50}図書館")
    assert prediction.conditioning["location"] == "library"
    assert prediction.warnings == ()


def test_a_huge_japanese_turn_is_read_in_its_first_part_and_said_to_be_long() -> None:
    text = ("美咲は夜の港でゆっくり歩く。" * 2000)[:20000]
    prediction = _play(f"キャラクター：美咲；{text}")
    c = prediction.conditioning
    assert (c["motion"], c["location"], c["time_of_day"], c["adverb"]) == ("walk", "sea", "night", "slowly")
    assert any(w.startswith("the free text is ") and TOO_LONG in w for w in prediction.warnings)
    # only what is read is put into English: the field of the English turn is no longer than that
    english = in_english(as_read(parse_instruction(text))[0], ("美咲",))
    assert len(english.free_text) <= MAX_TRANSLATED_CHARS
    assert english.free_text.endswith(in_english(parse_instruction(text[:MAX_ANALYSED_CHARS]), ("美咲",)).free_text)


def _written(word_written: str, follow: str) -> str:
    """A word as a text writes it: a verb's stem and a negated ending (the longest English)."""
    return word_written + follow[0] + "ない" if follow else word_written


@pytest.mark.parametrize("between", ["", "と", "、"])
def test_the_english_of_what_is_read_is_never_cut(between: str) -> None:
    """However long the English words of a field's first 400 characters are, all of it is read:
    the widest word of each table, written over and over, fits in MAX_TRANSLATED_CHARS."""
    for words in (MOTION_WORDS, PLACE_WORDS, TIME_WORDS, CAMERA_WORDS, ADVERB_WORDS):
        for word in words:
            written = _written(word.written, word.follow) + between
            text = (written * (MAX_ANALYSED_CHARS // len(written) + 1))[:MAX_ANALYSED_CHARS]
            fields = in_english(parse_instruction(f"動作：{text}；背景：{text}；{text}"))
            for value in (fields.motion, fields.background, fields.free_text):
                assert len(value) <= MAX_TRANSLATED_CHARS, (word, len(value))


def test_the_widest_words_then_a_motion_still_run() -> None:
    text = "峠、" * ((MAX_ANALYSED_CHARS - 10) // 2) + "走る"
    assert len(in_english(parse_instruction(text)).free_text) > 3 * MAX_ANALYSED_CHARS
    assert read_turn(parse_instruction(text)).motion.name == "run"


def test_english_and_direct_readings_keep_their_limit() -> None:
    """An English turn is still read to 400 characters, and the limit is back after a Japanese one."""
    long_english = "the harbour park at night, " * 20 + " runs"
    read_turn(parse_instruction(_filler(180) + "、走る"))
    assert analysed_chars() == MAX_ANALYSED_CHARS
    assert read_turn(parse_instruction(long_english)).motion.name == "idle"
    assert read_instruction(parse_instruction(long_english)).motion.name == "idle"
