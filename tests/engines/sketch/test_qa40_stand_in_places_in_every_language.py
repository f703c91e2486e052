"""A place the sketch world does not draw is shown as its stand-in, with a warning, however it
is written: "Qiqi sings at the karaoke bar" was drawn in the town without a word ("karaoke", a
motion word, hid the bar), and "キキが火山でジャンプする", "琪琪在火山上跳" and "키키가 화산에서
점프한다" showed the town with no warning, where the English "volcano" is the mountain, said.
The warning quotes the word as written. (The mini engine says such a word in its own
rephrasing: the reader gives it to the sketch engine only.)"""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict

NAMES = ("キキ", "琪琪", "키키")


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi sings at the karaoke bar", "sing"),
    ("Qiqi waits at the karaoke bar", "idle"),
    ("Qiqi dances at the karaoke bar", "dance"),
])
def test_a_karaoke_bar_is_a_bar_shown_as_the_cafe(text: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert (reading.motion.name, reading.location) == (motion, "cafe")
    assert "'karaoke bar' unknown, shown as 'cafe'" in reading.warnings
    assert not any("several motions" in warning for warning in reading.warnings)


def test_the_karaoke_bar_is_drawn_as_the_cafe() -> None:
    take = predict(SketchEngine(), "Qiqi sings at the karaoke bar", settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("sing", "cafe")


@pytest.mark.parametrize(("text", "written", "place"), [
    ("キキが火山でジャンプする", "火山", "mountain"),
    ("琪琪在火山上跳", "火山", "mountain"),
    ("키키가 화산에서 점프한다", "화산", "mountain"),
    ("キキは空港で待つ", "空港", "station"),
    ("琪琪在机场等", "机场", "station"),
    ("키키가 공항에서 기다린다", "공항", "station"),
    ("キキが浴室で歌う", "浴室", "bedroom"),
    ("琪琪在卫生间唱歌", "卫生间", "bedroom"),
    ("키키가 화장실에서 노래한다", "화장실", "bedroom"),
    ("キキはバーで歌う", "バー", "cafe"),
    ("琪琪在酒吧唱歌", "酒吧", "cafe"),
    ("키키가 술집에서 노래한다", "술집", "cafe"),
    ("キキが宮殿で踊る", "宮殿", "town"),
    ("琪琪在商场散步", "商场", "street"),
    ("키키가 쇼핑몰에서 걷는다", "쇼핑몰", "street"),
])
def test_a_stand_in_written_in_japanese_chinese_or_korean_is_shown_and_said(
        text: str, written: str, place: str) -> None:
    reading = read_turn(parse_instruction(text), (), NAMES, stand_ins=True)
    assert reading.location == place
    assert f"'{written}' unknown, shown as '{place}'" in reading.warnings
    assert reading.unknown_places == ()


def test_a_japanese_jump_on_the_volcano_is_drawn_on_the_mountain() -> None:
    take = predict(SketchEngine(), "Character: Qiqi; キキが火山でジャンプする", settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("jump", "mountain")
    assert "'火山' unknown, shown as 'mountain'" in take.warnings


@pytest.mark.parametrize(("text", "place"), [
    ("キキが公園で走る", "park"),
    ("キキがリビングで本を読む", "bedroom"),
    ("キキが部屋のソファで本を読む", "bedroom"),
    ("キキは雪の中で遊ぶ", ""),
    ("キキがソファに座る", ""),
])
def test_places_of_ours_seats_and_weather_say_no_stand_in(text: str, place: str) -> None:
    reading = read_turn(parse_instruction(text), (), NAMES, stand_ins=True)
    assert reading.location == place
    assert not any("unknown, shown as" in warning for warning in reading.warnings)
