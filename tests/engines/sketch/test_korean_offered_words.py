"""The sketch engine offers Korean words for a Korean turn's chips, as it offers Japanese and
Chinese ones, and every word it offers is read back as what it names; its Korean time words
are the core's (one table, which also says how each is drawn and which the menus offer).

Before, the catalogue had no Korean words: a Korean turn's menus offered English words, and
the Korean reader kept a time table of its own beside the core's."""

from __future__ import annotations

import json

import pytest

from studio.core.instruction import parse_instruction, time_choices, time_note, time_shown, time_words
from studio.engines.catalog.sketch import INFO, VOCABULARY_FILE
from studio.engines.sketch import korean
from studio.engines.sketch.offer import live_vocabulary, vocabulary_json
from studio.engines.sketch.understanding import read_turn
from studio.engines.sketch.vocabulary import LOCATION_BY_NAME

TURN = "캐릭터: 민수; 동작: {motion}; 배경: {place}; 시간: {time}; 카메라: {camera}"
PLAIN = {"motion": "걷다", "place": "공원", "time": "낮", "camera": "고정"}
ENGLISH = "Character: 민수; Motion: walk; Background: park; Time: day; Camera: {camera}"


_MOTION_OF = {written.split("/")[0].strip(): motion
              for motion, pairs in korean.MOTION_GROUPS.items()
              for written, _english in (pair.split("=") for pair in pairs.split(",") if pair.strip())}
"""Each Korean word of a motion, in its dictionary form, and the motion it is listed for."""


def _read(**fields: str):  # type: ignore[no-untyped-def]
    return read_turn(parse_instruction(TURN.format(**{**PLAIN, **fields})), [], ["민수"])


def test_the_catalogue_lists_korean_words_as_the_engine_offers_them() -> None:
    stored = INFO.vocabulary().in_language("ko")
    assert stored is not None
    assert {"달리다", "걷다", "춤추다", "산책하다"} <= set(stored.motions)
    assert {"공원", "바다", "도서관"} <= set(stored.locations) and "공항" not in stored.locations  # not drawn
    assert {"줌인", "따라가다"} <= set(stored.cameras) and "천천히" in stored.adverbs
    assert "산책" not in stored.motions  # the verb 산책하다 is offered, not its noun as well
    assert "고개" not in stored.motions  # a head, turned only with 돌리다: no motion alone
    assert json.loads(VOCABULARY_FILE.read_text(encoding="utf-8")) == json.loads(vocabulary_json(live_vocabulary()))


def test_every_offered_korean_word_is_read_as_what_it_names() -> None:
    words = live_vocabulary().in_language("ko")
    assert words is not None and words.motions and words.locations and words.cameras and words.adverbs
    unread = []
    for motion in words.motions:
        reading = _read(motion=motion)
        if reading.warnings or reading.motion.name != _MOTION_OF[motion]:
            unread.append(("motion", motion, reading.motion.name, reading.warnings))
    for place in words.locations:
        reading = _read(place=place)
        if reading.warnings or reading.location not in LOCATION_BY_NAME:
            unread.append(("place", place, reading.warnings))
    for camera in words.cameras:
        reading = _read(camera=camera)
        said = korean.in_english_words(camera, korean.CAMERA_TABLE).strip()
        as_english = read_turn(parse_instruction(ENGLISH.format(camera=said)), [], ["민수"])
        if reading.warnings and not as_english.warnings:  # read no worse than its English word
            unread.append(("camera", camera, reading.warnings))
    for adverb in words.adverbs:
        reading = _read(motion=f"{adverb} 걷다")
        if reading.warnings:
            unread.append(("adverb", adverb, reading.warnings))
    assert not unread


def test_the_korean_readers_time_words_are_the_core_s() -> None:
    assert [(w.written, w.english) for w in korean.TIME_WORDS] == [(w.written, w.english) for w in time_words("ko")]
    assert {"아침", "낮", "저녁", "해질녘", "새벽", "밤", "심야"} <= set(time_choices("ko"))


@pytest.mark.parametrize("word", time_words("ko"), ids=lambda w: w.written)
def test_each_korean_time_word_is_drawn_as_the_core_says(word) -> None:  # type: ignore[no-untyped-def]
    reading = _read(time=word.written)
    assert reading.time == time_shown(word.written) == word.shown, reading.warnings
    assert not reading.warnings


def test_korean_time_words_have_notes_and_menus_in_the_day_s_order() -> None:
    assert time_note("저녁") == "'저녁' is drawn with the low warm light of sunset."
    assert time_note("아침") == "'아침' is drawn with the daylight."
    assert time_note("밤") == "" and time_note("낮") == ""  # drawn as they are
    offered = time_choices("ko")
    assert len(offered) == len(set(offered)) and {time_shown(w) for w in offered} == {"day", "sunset", "night"}
