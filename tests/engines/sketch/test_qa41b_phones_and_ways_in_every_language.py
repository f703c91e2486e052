"""A phone looked at or played on is read in every language (スマホを見る, 看手机, 玩手机,
휴대폰을 본다, "looks at her phone"): it was a look around, or ball play. A way from one place to
another in Japanese, Chinese and Korean (駅から学校まで, 从学校跑到公园, 학교에서 공원까지) is drawn
where it goes, as "from the station to the school" is: it was drawn where it starts."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict

NAMES = ["Qiqi", "Yuzu"]


@pytest.mark.parametrize("text", [
    "Qiqiはスマホを見ている", "Qiqiは携帯を見る", "琪琪在看手机", "琪琪在床上玩手机", "Qiqi는 휴대폰을 본다",
    "Qiqi는 스마트폰을 본다", "Qiqi looks at her phone", "Qiqi plays on her phone",
])
def test_a_phone_looked_at_is_read(text: str) -> None:
    reading = read_turn(parse_instruction(text), [], NAMES)
    assert reading.motion.name == "read"
    assert "'phone' unknown, shown as 'read'" in reading.warnings


@pytest.mark.parametrize("text", ["Qiqiは携帯で話す", "琪琪用手机聊天", "Qiqi는 스마트폰으로 통화한다"])
def test_a_phone_talked_on_is_a_talk(text: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == "talk"


@pytest.mark.parametrize(("text", "motion"), [("Qiqi plays ball", "play"), ("Qiqi looks around", "look around")])
def test_looking_and_playing_stay_without_a_phone(text: str, motion: str) -> None:
    assert read_turn(parse_instruction(text), [], NAMES).motion.name == motion


@pytest.mark.parametrize(("text", "place"), [
    ("Qiqiは駅から学校まで走る", "school"), ("Qiqiは駅から学校へ走る", "school"), ("琪琪从学校跑到公园", "park"),
    ("Qiqi는 학교에서 공원까지 달린다", "park"), ("Qiqi는 학교에서 공원으로 달려간다", "park"),
])
def test_a_way_is_drawn_where_it_goes(text: str, place: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("run", place)


@pytest.mark.parametrize(("text", "place"), [
    ("Qiqi는 공원에서 달린다", "park"), ("Qiqiは公園で走る", "park"), ("琪琪在公园跑步", "park"),
    ("Qiqiは駅から歩く", "station"),
])
def test_a_place_alone_stays_where_the_turn_is(text: str, place: str) -> None:
    assert predict(SketchEngine(), text, settings=SMALL).conditioning["scene"] == place
