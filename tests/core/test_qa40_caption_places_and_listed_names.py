"""A caption says a place with the preposition English gives it, and names listed with commas
as English lists them: "Qiqi, Yuzu dance in the town", "Taro skateboards in the downtown",
"waits in the bus stop", "sleeps in home" and "studies in the school" were captions of
field-form turns."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action


@pytest.mark.parametrize(("text", "caption"), [
    ("Character: Qiqi, Yuzu; Motion: dance; Background: town; Time: night",
     "Qiqi and Yuzu dance in the town, at night."),
    ("Character: Qiqi, Yuzu, Taro; Motion: wave", "Qiqi, Yuzu and Taro wave."),
    ("Character: Qiqi, Yuzu and Taro; Motion: wave", "Qiqi, Yuzu and Taro wave."),
    ("Character: Qiqi and Yuzu; Motion: wave", "Qiqi and Yuzu wave."),
    ("Character: Taro; Motion: skateboard; Background: downtown", "Taro skateboards downtown."),
    ("Character: Qiqi; Motion: walk; Background: DOWNTOWN", "Qiqi walks downtown."),
    ("Character: Qiqi; Motion: sleep; Background: home", "Qiqi sleeps at home."),
    ("Character: Qiqi; Motion: sleep; Background: Home", "Qiqi sleeps at home."),
    ("Character: Qiqi; Motion: study; Background: school", "Qiqi studies at school."),
    ("Character: Qiqi; Motion: wait; Background: bus stop", "Qiqi waits at the bus stop."),
    ("Character: Yuzu; Motion: wave goodbye; Background: station; Time: evening",
     "Yuzu waves goodbye at the station, in the evening."),
    ("Character: Yuzu; Motion: wave; Background: train station", "Yuzu waves at the train station."),
    ("Character: Aoi; Motion: bow deeply; Background: shrine", "Aoi bows deeply at the shrine."),
    ("Character: Qiqi; Motion: walk; Background: airport", "Qiqi walks at the airport."),
])
def test_a_field_form_turn_is_captioned_as_english_says_it(text: str, caption: str) -> None:
    assert describe_action(parse_instruction(text)) == caption


@pytest.mark.parametrize(("text", "caption"), [
    ("Character: Qiqi; Motion: read; Background: library", "Qiqi reads in the library."),
    ("Character: Qiqi; Motion: walk; Background: beach", "Qiqi walks on the beach."),
    ("Character: Qiqi; Motion: walk; Background: Central Station", "Qiqi walks at Central Station."),
    ("Character: Qiqi; Motion: walk; Background: Tokyo", "Qiqi walks in Tokyo."),
    ("Character: Qiqi; Motion: walk; Background: the old school", "Qiqi walks in the old school."),
    ("Character: 美咲, ゆず; Motion: dance", "美咲 and ゆず dance."),
])
def test_other_places_and_names_keep_their_words(text: str, caption: str) -> None:
    assert describe_action(parse_instruction(text)) == caption
