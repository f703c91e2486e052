"""An instrument played in Japanese, Chinese or Korean (ギターを弾く, 弹吉他, 기타를 친다) is shown
singing, said, as "plays the guitar" is: it was the idle (or, for 拉小提琴, carrying: 提 of 小提琴).
An instrument struck ("hits the drum") or named with a verb we do not know ("strums her guitar",
フルートを吹く) is played too. Nothing is read into a word that only holds the same character
(弹跳, to bounce; 子弹, a bullet)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine, chinese, japanese, korean
from studio.engines.sketch.offer import live_vocabulary
from studio.engines.sketch.understanding import read_instruction, read_turn

from ..sketch_helpers import SMALL, predict

NAMES = ["Qiqi", "Yuzu"]


@pytest.mark.parametrize(("text", "instrument"), [
    ("Qiqiがギターを弾く", "guitar"), ("ピアノを弾く", "piano"), ("Qiqiは公園でバイオリンを弾いている", "violin"),
    ("Qiqiはドラムを叩く", "drum"), ("Qiqiはフルートを吹く", "flute"), ("Qiqiはピアノを演奏する", "piano"),
    ("琪琪弹吉他", "guitar"), ("琪琪在弹钢琴", "piano"), ("拉小提琴", "violin"), ("琪琪打鼓", "drum"),
    ("琪琪吹笛子", "flute"),
    ("Qiqi가 기타를 친다", "guitar"), ("Qiqi는 피아노를 친다", "piano"), ("Qiqi가 바이올린을 켠다", "violin"),
    ("Qiqi가 피아노를 연주한다", "piano"),
])
def test_an_instrument_played_is_sung_and_said(text: str, instrument: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "sing"
    assert f"'{instrument}' is not drawn: shown as 'sing'" in reading.warnings


@pytest.mark.parametrize(("text", "instrument"), [
    ("Qiqi strums her guitar", "guitar"), ("Qiqi hits the drum", "drum"), ("Qiqi bangs the drums", "drum"),
])
def test_an_instrument_struck_or_strummed_in_english_is_sung(text: str, instrument: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "sing"
    assert reading.warnings == [f"'{instrument}' is not drawn: shown as 'sing'"]


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi hits Yuzu", "punch"), ("他弹跳起来", "jump"), ("Qiqi 在公园玩球", "play"),
])
def test_other_words_are_not_instruments(text: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == motion
    assert not any("is not drawn" in w for w in reading.warnings)


def test_a_bullet_is_no_instrument_played() -> None:
    reading = read_turn(parse_instruction("子弹"), [], NAMES)
    assert reading.motion.name == "idle"


def test_the_engine_draws_the_song() -> None:
    take = predict(SketchEngine(), "Qiqiがギターを弾く", settings=SMALL)
    assert take.conditioning["motion"] == "sing"


def test_the_instruments_are_not_offered_as_words_of_a_motion() -> None:
    vocabulary = dict(live_vocabulary().languages)
    offered = {word for words in vocabulary.values() for word in words.motions}
    listed = {word.written for word in (*japanese.INSTRUMENT_WORDS, *chinese.INSTRUMENT_WORDS,
                                        *korean.INSTRUMENT_WORDS)}
    assert not offered & listed
