"""The core knows the Japanese and Chinese words for the times of day it draws: one table,
read by the sketch engine's Japanese and Chinese readers, and by the inspector's notes.

``time_note("夜")`` said "'夜' is not a time of day the studio knows; it is drawn by day",
though every engine drew it at night.
"""

from __future__ import annotations

import pytest

from studio.core.instruction import (
    CJK_TIME_WORDS,
    RENDERED_TIMES,
    TIME_CHOICES,
    TIME_WORDS,
    InstructionError,
    time_choices,
    time_note,
    time_shown,
    time_words,
    validate_instruction_text,
)


@pytest.mark.parametrize(("word", "shown"), [
    ("朝", "day"), ("昼", "day"), ("夕方", "sunset"), ("夜明け", "sunset"), ("夜", "night"), ("深夜", "night"),
    ("早上", "day"), ("白天", "day"), ("中午", "day"), ("下午", "day"), ("傍晚", "sunset"), ("黄昏", "sunset"),
    ("黃昏", "sunset"), ("晚上", "night"), ("夜晚", "night"), ("夜裡", "night"), ("夕陽", "sunset"),
    ("破曉", "sunset"), ("日間", "day"), (" 夕方\u3000", "sunset"),
])
def test_japanese_and_chinese_time_words_are_drawn_as_their_time(word: str, shown: str) -> None:
    assert time_shown(word) == shown


def test_a_note_quotes_the_word_as_written() -> None:
    assert time_note("夕方") == "'夕方' is drawn with the low warm light of sunset."
    assert time_note("黃昏") == "'黃昏' is drawn with the low warm light of sunset."
    assert time_note("早上") == "'早上' is drawn with the daylight."
    assert time_note("真夜中") == "'真夜中' is drawn with the night light."
    # a word that names a time drawn as it is needs no note, as "night" needs none
    assert [time_note(word) for word in ("夜", "昼", "晚上", "白天", "夜晚", "深夜")] == [""] * 6
    assert time_note("おやつ時") == "'おやつ時' is not a time of day the studio knows; it is drawn by day."
    assert time_shown("おやつ時") == ""


def test_english_words_are_read_as_before() -> None:
    assert all(key.isascii() for key in TIME_WORDS)  # the English table holds English words only
    assert time_note("dawn") == "'dawn' is drawn with the low warm light of sunset."
    assert time_note("Midnight") == "'midnight' is drawn with the night light."
    assert time_note("teatime") == "'teatime' is not a time of day the studio knows; it is drawn by day."
    assert [time_shown(word) for word in TIME_WORDS] == list(TIME_WORDS.values())
    assert time_choices() == TIME_CHOICES == time_choices("")


def test_each_word_is_drawn_as_its_english_reading() -> None:
    """The engines read a word as its English word: the core's time for it is that word's."""
    for word in CJK_TIME_WORDS:
        assert word.shown in RENDERED_TIMES, word
        if word.english in TIME_WORDS:
            assert TIME_WORDS[word.english] == word.shown, word
        for form in (word.written, word.traditional):
            assert time_shown(form) == word.shown, word  # a word written alike in both languages agrees


def test_menus_offer_common_words_in_each_script() -> None:
    japanese, simplified, traditional = time_choices("ja"), time_choices("zh"), time_choices("zh-hant")
    assert {"朝", "昼", "夕方", "夜", "夜明け", "深夜"} <= set(japanese)
    assert {"早上", "白天", "中午", "下午", "傍晚", "黄昏", "晚上", "夜晚", "深夜"} <= set(simplified)
    assert "黃昏" in traditional and "黄昏" not in traditional
    assert "黄昏" not in {w.traditional for w in time_words("zh")}
    for offered in (japanese, simplified, traditional):
        assert len(offered) == len(set(offered)) and all(time_shown(word) for word in offered)
        assert {time_shown(word) for word in offered} == set(RENDERED_TIMES)
    assert "밤" in time_choices("ko") and {w.written: w.shown for w in time_words("ko")}["저녁"] == "sunset"
    assert time_choices("fr") == () and time_words("fr") == ()


def test_a_time_in_the_background_and_a_japanese_time_that_differ_are_refused() -> None:
    with pytest.raises(InstructionError, match=r"two times of day: 'day' in 'Background: day town' and 'Time: 夜'"):
        validate_instruction_text("Character: Qiqi; Motion: walk; Background: day town; Time: 夜")
    validate_instruction_text("Character: Qiqi; Motion: walk; Background: night town; Time: 夜")  # the two agree
    validate_instruction_text("Background: sunset beach; Time: 黄昏")
