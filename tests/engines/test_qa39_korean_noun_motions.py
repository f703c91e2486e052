"""A Korean turn whose motion is a noun ("동작: 춤", "민수가 공원에서 춤") is captioned with the
motion as a verb in the plain present, as a turn written with the verb is ("민수는 공원에서 춤을
춘다."). Before, the caption kept the noun ("민수는 공원에서 춤."), read "수다" as a verb (순다), and
a few motion nouns the sketch knows under another word (여행, travel; 놀이, having fun) were drawn
standing idle with "'여행' unknown"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, korean_motion
from studio.engines.sketch import korean
from studio.engines.sketch.understanding import read_turn

CAST = ("민수",)

NOUNS = {  # the motion as written -> the caption's verb
    "춤": "춤을 춘다", "노래": "노래를 부른다", "산책": "산책한다", "운동": "운동한다", "수영": "수영한다",
    "낮잠": "낮잠을 잔다", "잠": "잠을 잔다", "청소": "청소한다", "요리": "요리한다", "독서": "독서한다",
    "공부": "공부한다", "수다": "수다를 떤다", "기도": "기도한다", "등산": "등산한다", "조깅": "조깅한다",
    "그림": "그림을 그린다", "박수": "박수를 친다", "울음": "운다", "웃음": "웃는다", "미소": "미소를 짓는다",
    "인사": "인사한다", "게임": "게임을 한다", "줄넘기": "줄넘기를 한다", "기지개": "기지개를 켠다",
    "여행": "여행한다", "놀이": "놀이를 한다", "낚시": "낚시한다", "요가": "요가를 한다",
    "달리기": "달린다", "걷기": "걷는다", "춤추기": "춤춘다", "노래하기": "노래한다", "수영하기": "수영한다",
    "뛰기": "뛴다", "잠자기": "잠잔다",
}
VERBS = ("춤춘다", "춤을 춘다", "노래를 부른다", "노래한다", "산책한다", "달린다", "걷는다", "운동한다", "수영한다",
         "낮잠을 잔다", "청소한다", "수다를 떤다", "운다", "웃는다")

DRAWN_BEFORE = {  # what the sketch drew for each before: it draws the same
    "춤": "dance", "노래": "sing", "산책": "walk", "달리기": "run", "걷기": "walk", "춤추기": "dance",
    "노래하기": "sing", "운동": "stretch", "수영": "swim", "낮잠": "sleep", "청소": "sweep", "요리": "cook",
    "독서": "read", "공부": "read", "수다": "talk", "기도": "pray", "명상": "pray", "등산": "climb", "조깅": "run",
    "점프": "jump", "스트레칭": "stretch", "체조": "stretch", "식사": "eat", "잠": "sleep", "울음": "cry",
    "웃음": "laugh", "그림": "write", "박수": "clap", "인사": "wave", "줄넘기": "jump", "발차기": "kick",
    "휴식": "idle", "비행": "fly on broomstick", "구경": "look around", "전화": "talk", "게임": "play",
}
NEWLY_READ = {"여행": "walk", "외출": "walk", "산보": "walk", "나들이": "walk", "뜀박질": "run", "달음박질": "run",
              "놀이": "play", "축구": "play", "숨바꼭질": "play"}
"""Nouns of a motion drawn standing idle before, which the sketch knows under another word."""


def _reading(text: str):  # type: ignore[no-untyped-def]
    return read_turn(parse_instruction(text), names=CAST)


@pytest.mark.parametrize(("noun", "verb"), NOUNS.items())
def test_a_noun_in_the_motion_field_is_captioned_as_a_verb(noun: str, verb: str) -> None:
    caption = describe_action(parse_instruction(f"캐릭터: 민수; 동작: {noun}; 배경: 공원; 시간: 밤"))
    assert caption == f"민수는 밤에 공원에서 {verb}."


@pytest.mark.parametrize(("noun", "verb"), NOUNS.items())
def test_a_noun_ending_korean_free_text_is_captioned_as_a_verb(noun: str, verb: str) -> None:
    assert describe_action(parse_instruction(f"민수가 공원에서 {noun}")) == f"민수가 공원에서 {verb}."
    assert describe_action(parse_instruction(f"민수가 신나게 {noun}!")) == f"민수가 신나게 {verb}!"


@pytest.mark.parametrize("verb", VERBS)
def test_a_motion_written_as_a_verb_is_captioned_as_written(verb: str) -> None:
    assert describe_action(parse_instruction(f"캐릭터: 민수; 동작: {verb}; 배경: 공원")) == f"민수는 공원에서 {verb}."
    assert describe_action(parse_instruction(f"민수가 공원에서 {verb}.")) == f"민수가 공원에서 {verb}."


@pytest.mark.parametrize("text", [
    "민수가 좋아하는 노래",  # a song he likes: a thing, not his singing
    "민수의 노래",
    "민수가 감기",  # a cold, no -기 form of a verb
    "민수가 여기",
    "좋아하는 노래",
    "민수는 바다를 좋아한다. 노래",
])
def test_a_korean_free_text_whose_last_noun_is_a_thing_stays_as_written(text: str) -> None:
    assert describe_action(parse_instruction(text)) == text + "."


def test_each_sentence_of_a_free_text_and_the_text_after_fields_is_said() -> None:
    assert describe_action(parse_instruction("민수가 공원에서 춤. 친구가 노래")) == \
        "민수가 공원에서 춤을 춘다. 친구가 노래를 부른다."
    assert describe_action(parse_instruction("캐릭터: 민수; 동작: 산책; 배경: 공원; 친구와 수다")) == \
        "민수는 공원에서 산책한다. 친구와 수다를 떤다."
    assert describe_action(parse_instruction("Character: Qiqi; Motion: dance; friends sing")) == \
        "Qiqi dances. Friends sing."


@pytest.mark.parametrize(("noun", "motion"), DRAWN_BEFORE.items())
def test_a_noun_understood_before_is_drawn_as_before(noun: str, motion: str) -> None:
    for text in (f"캐릭터: 민수; 동작: {noun}; 배경: 공원", f"민수가 공원에서 {noun}"):
        reading = _reading(text)
        assert (reading.motion.name, reading.location) == (motion, "park"), text


@pytest.mark.parametrize(("noun", "motion"), NEWLY_READ.items())
def test_a_noun_the_sketch_knows_under_another_word_reads_as_that_motion(noun: str, motion: str) -> None:
    for text in (f"캐릭터: 민수; 동작: {noun}; 배경: 공원", f"민수가 공원에서 {noun}",
                 f"민수가 공원에서 {korean_motion(noun)}"):
        reading = _reading(text)
        assert reading.motion.name == motion, text
        assert not [w for w in reading.warnings if "unknown" in w or "no motion" in w], (text, reading.warnings)


def test_a_place_that_starts_like_a_new_noun_is_still_a_place() -> None:
    reading = _reading("민수가 놀이터에서 논다")
    assert (reading.motion.name, reading.location) == ("play", "park")


def test_every_motion_noun_of_the_sketch_is_captioned_as_a_verb_drawn_as_the_noun() -> None:
    nouns = sorted({w.written for w in korean.MOTION_WORDS if w.kind == "action"}
                   - {w.written for w in korean.PART_WORDS})
    assert len(nouns) > 100
    for noun in nouns:
        said = korean_motion(noun)
        assert said != noun and said.endswith("다"), noun
        drawn, read_back = _reading(f"캐릭터: 민수; 동작: {noun}"), _reading(f"캐릭터: 민수; 동작: {said}")
        assert read_back.motion.name == drawn.motion.name, (noun, said)
        assert read_back.warnings == drawn.warnings == [], (noun, said)  # not "several motions named"


def test_play_and_the_exported_subtitles_say_the_nouns_as_verbs(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"

    def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=300)

    assert kamishibai("new", str(project)).returncode == 0
    turns = ("캐릭터: 민수; 동작: 춤; 배경: 공원", "민수가 공원에서 노래", "캐릭터: 민수; 동작: 수다; 배경: 카페",
             "민수가 공원에서 여행")
    played = kamishibai("play", str(project), "--engine", "sketch", "--setting", "height=32", "--setting", "width=48",
                        *turns)
    assert played.returncode == 0, played.stderr
    motions = [line.split("motion ")[1].split()[0] for line in played.stdout.splitlines() if "understood" in line]
    assert motions == ["dance", "sing", "talk", "walk"]
    srt = tmp_path / "story.srt"
    exported = kamishibai("export", str(project), "--out", str(srt), "--quiet")
    assert exported.returncode == 0, exported.stderr
    # a cue may take two lines (a Korean line holds 16 characters, spaces counted): read its text whole
    cues = [" ".join(block.splitlines()[2:]) for block in srt.read_text(encoding="utf-8").strip().split("\n\n")]
    assert cues == ["민수는 공원에서 춤을 춘다.", "민수가 공원에서 노래를 부른다.", "민수는 카페에서 수다를 떤다.",
                    "민수가 공원에서 여행한다."]
