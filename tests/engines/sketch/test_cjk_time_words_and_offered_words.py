"""The sketch engine's Japanese and Chinese readers take their time words from the core's one
table (and draw each as the core says), and every Japanese or Chinese word the engine offers
for a chip is read back as what it names."""

from __future__ import annotations

import pytest

from studio.core.instruction import CJK_TIME_WORDS, parse_instruction, time_shown, time_words
from studio.engines.catalog.sketch import INFO
from studio.engines.sketch import chinese, japanese
from studio.engines.sketch.offer import live_vocabulary
from studio.engines.sketch.understanding import read_turn
from studio.engines.sketch.vocabulary import LOCATION_BY_NAME

TURNS = {
    "ja": "キャラクター：美咲；動作：{motion}；背景：{place}；時間帯：{time}；カメラ：{camera}",
    "zh": "角色：美咲；动作：{motion}；背景：{place}；时间：{time}；镜头：{camera}",
    "zh-hant": "角色：美咲；動作：{motion}；場景：{place}；時間：{time}；鏡頭：{camera}",
}
PLAIN = {"ja": {"motion": "歩く", "place": "公園", "time": "昼", "camera": "固定"},
         "zh": {"motion": "走路", "place": "公园", "time": "白天", "camera": "固定"},
         "zh-hant": {"motion": "走路", "place": "公園", "time": "白天", "camera": "固定"}}
ENGLISH = "Character: 美咲; Motion: {motion}; Background: {place}; Time: {time}; Camera: {camera}"


def _read(language: str, **fields: str):  # type: ignore[no-untyped-def]
    return read_turn(parse_instruction(TURNS[language].format(**{**PLAIN[language], **fields})), [], ["美咲"])


def test_the_readers_time_words_are_the_core_s() -> None:
    assert [(w.written, w.english) for w in japanese.TIME_WORDS] == \
        [(w.written, w.english) for w in time_words("ja")]
    assert {w.written for w in chinese.TIME_WORDS} == \
        {form for w in time_words("zh") for form in (w.written, w.traditional)}
    # the core writes each Chinese word in Traditional as the Chinese reader does
    assert [w.traditional for w in time_words("zh")] == [chinese.in_traditional(w.written) for w in time_words("zh")]
    assert {w.written for _, pairs in chinese.TIME_GROUPS.items() for w in chinese._words(pairs)} == \
        {w.written for w in chinese.TIME_WORDS}


@pytest.mark.parametrize("word", CJK_TIME_WORDS, ids=lambda w: f"{w.language}-{w.written}")
def test_each_time_word_is_drawn_as_the_core_says(word) -> None:  # type: ignore[no-untyped-def]
    languages = ("ja",) if word.language == "ja" else ("zh", "zh-hant")
    for language, form in zip(languages, (word.written, word.traditional), strict=False):
        reading = _read(language, time=form)
        assert reading.time == time_shown(form) == word.shown, (language, form, reading.warnings)


@pytest.mark.parametrize("language", ["ja", "zh", "zh-hant"])
def test_every_offered_word_is_read_as_what_it_names(language: str) -> None:
    words = live_vocabulary().in_language(language)
    assert words is not None and words.motions and words.locations and words.cameras and words.adverbs
    unread = []
    for motion in words.motions:
        reading = _read(language, motion=motion)
        if reading.warnings:  # a motion not read is named: "'x' unknown, shown as 'idle'"
            unread.append(("motion", motion, reading.warnings))
    for place in words.locations:
        reading = _read(language, place=place)
        if reading.warnings or reading.location not in LOCATION_BY_NAME:
            unread.append(("place", place, reading.warnings))
    for camera in words.cameras:
        reading = _read(language, camera=camera)
        english = japanese if language == "ja" else chinese
        said = english.in_english_words(camera, english.CAMERA_TABLE).strip()
        as_english = read_turn(parse_instruction(ENGLISH.format(motion="walk", place="park", time="day",
                                                                camera=said)), [], ["美咲"])
        if reading.warnings and not as_english.warnings:  # read no worse than its English word
            unread.append(("camera", camera, reading.warnings))
    for adverb in words.adverbs:
        reading = _read(language, motion=adverb + PLAIN[language]["motion"])
        if reading.warnings:
            unread.append(("adverb", adverb, reading.warnings))
    assert not unread


def test_the_catalogue_lists_the_words_of_each_language() -> None:
    stored = INFO.vocabulary()
    assert [language for language, _ in stored.languages] == ["ja", "zh", "zh-hant", "ko"]
    assert stored.in_language("") is stored and stored.in_language("fr") is None
    japanese_words = stored.in_language("ja")
    assert japanese_words is not None and "走る" in japanese_words.motions and "港" in japanese_words.locations
    assert "歌" in japanese_words.motions  # the noun (song) reads as itself beside 歌う's stem
    simplified, traditional = stored.in_language("zh"), stored.in_language("zh-hant")
    assert simplified is not None and traditional is not None
    assert "图书馆" in simplified.locations and "圖書館" in traditional.locations
    assert "图书馆" not in traditional.locations and "空港" not in japanese_words.locations  # an airport: not drawn
