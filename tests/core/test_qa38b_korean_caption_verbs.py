"""A Korean turn's caption ends in a sentence's verb: a motion written as a -기 noun (달리기) or in
its dictionary form (달리다) is put in the plain present (달린다). Before, the motion was kept
as written, and ``캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤`` was captioned
"민수는 밤에 공원에서 달리기." (a noun, not a sentence); now "민수는 밤에 공원에서 달린다."."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, korean_motion, korean_present

CATALOG = Path(__file__).parents[2] / "studio" / "engines" / "catalog" / "sketch_vocabulary.json"
OFFERED = json.loads(CATALOG.read_text(encoding="utf-8"))["languages"]["ko"]["motions"]
"""Every Korean motion the sketch engine offers an author."""


def sentence(text: str) -> str:
    return describe_action(parse_instruction(text))


def test_the_turn_of_the_report_reads_as_a_sentence() -> None:
    assert sentence("캐릭터: 민수; 동작: 달리기; 배경: 공원; 시간: 밤") == "민수는 밤에 공원에서 달린다."
    assert sentence("Character: 민수; Motion: 달리기; Background: 공원; Time: 밤") == "민수는 밤에 공원에서 달린다."


@pytest.mark.parametrize(("stem", "present"), [
    ("달리", "달린다"), ("춤추", "춤춘다"), ("하", "한다"), ("산책하", "산책한다"),  # a vowel: ㄴ다
    ("놀", "논다"), ("날", "난다"), ("쓸", "쓴다"), ("만들", "만든다"),  # ㄹ drops: ㄴ다
    ("먹", "먹는다"), ("읽", "읽는다"), ("밟", "밟는다"), ("앉", "앉는다"), ("안", "안는다"),  # a final: 는다
    ("걷", "걷는다"), ("눕", "눕는다"), ("짓", "짓는다"), ("부르", "부른다"),  # irregular stems, as they are here
])
def test_the_plain_present_of_a_stem(stem: str, present: str) -> None:
    assert korean_present(stem) == present


@pytest.mark.parametrize(("motion", "said"), [
    ("달리기", "달린다"), ("달리다", "달린다"), ("걷기", "걷는다"), ("걷다", "걷는다"), ("놀기", "논다"),
    ("먹다", "먹는다"), ("천천히 걷기", "천천히 걷는다"), ("산책하기", "산책한다"), ("산책하다", "산책한다"),
    ("춤추기", "춤춘다"), ("안 달리기", "안 달린다"), ("달리지 않다", "달리지 않는다"), ("돌아다니다", "돌아다닌다"),
    ("껴안다", "껴안는다"), ("속삭이다", "속삭인다"), ("줄넘기", "줄넘기를 한다"), ("달리기!", "달린다!"),
    # already a sentence's verb: as written
    ("달린다", "달린다"), ("달려요", "달려요"), ("달리고 있다", "달리고 있다"), ("먹는다", "먹는다"),
    ("달렸다", "달렸다"), ("갑니다", "갑니다"), ("먹습니다", "먹습니다"), ("춥다", "춥다"), ("논다", "논다"),
    # a motion noun: said with its verb
    ("춤", "춤을 춘다"), ("미소", "미소를 짓는다"), ("", ""),
])
def test_only_the_last_verb_of_a_motion_changes(motion: str, said: str) -> None:
    assert korean_motion(motion) == said


@pytest.mark.parametrize(("text", "expected"), [
    ("캐릭터: 민수; 동작: 걷기; 배경: 공원; 방식: 천천히", "민수는 공원에서 천천히 걷는다."),
    ("캐릭터: 민준; 동작: 놀다; 배경: 공원", "민준은 공원에서 논다."),
    ("캐릭터: 민수; 동작: 산책하기; 배경: 공원; 시간: 밤; 그는 행복하다",
     "민수는 밤에 공원에서 산책한다. 그는 행복하다."),
    ("캐릭터: 민수; 동작: 달린다; 배경: 공원", "민수는 공원에서 달린다."),
])
def test_a_korean_caption(text: str, expected: str) -> None:
    assert sentence(text) == expected


VERBS = [word for word in OFFERED if word.endswith(("다", "기"))]


def test_the_offered_motions_hold_verbs_and_nouns() -> None:
    assert len(VERBS) > 150 and "달리기" in VERBS and "산책하다" in VERBS


@pytest.mark.parametrize("motion", VERBS)
def test_every_offered_korean_verb_is_captioned_in_a_finite_form(motion: str) -> None:
    caption = sentence(f"캐릭터: 민수; 동작: {motion}; 배경: 공원")
    assert caption.startswith("민수는 공원에서 ") and caption.endswith("다.")
    verb = caption.removeprefix("민수는 공원에서 ").removesuffix(".")
    assert verb != motion or motion in ("춥다", "뾰로통하다")  # descriptive: already the present
