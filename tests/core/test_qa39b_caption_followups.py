"""Follow-ups of the captions' acceptance check: several characters say a verb already
conjugated in its plain form ("Qiqi and Yuzu run", "are dancing"), names joined in Japanese,
Chinese or Korean are several, weather words in Time read "on a rainy day", and noun-phrase
motions take their own verb ("goes for a jog", "sings 2 songs", "eats an apple")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action, plain_form, several_characters


def caption(text: str) -> str:
    return describe_action(parse_instruction(text))


@pytest.mark.parametrize(("motion", "said"), [
    ("runs", "run"), ("is dancing", "are dancing"), ("goes home", "go home"), ("watches TV", "watch TV"),
    ("does the splits", "do the splits"), ("has lunch", "have lunch"), ("was dancing", "were dancing"),
    ("flies to the park", "fly to the park"), ("dances", "dance"), ("kisses", "kiss"), ("running", "run"),
    ("ran", "run"), ("sits and reads a book", "sit and read a book"), ("walked home", "walked home"),
])
def test_several_characters_say_the_plain_form(motion: str, said: str) -> None:
    assert caption(f"Character: Qiqi and Yuzu; Motion: {motion}") == f"Qiqi and Yuzu {said}."


@pytest.mark.parametrize(("word", "plain"), [
    ("RUNS", "RUN"), ("Watches", "Watch"), ("sneezes", "sneeze"), ("lies", "lie"), ("cries", "cry"),
    ("buzzes", "buzz"), ("rises", "rise"), ("手を振る", "手を振る"), ("are", "are"),
])
def test_plain_form(word: str, plain: str) -> None:
    assert plain_form(word) == plain


@pytest.mark.parametrize("who", ["美咲とゆず", "小明和小红", "민수와 지수"])
def test_names_joined_in_japanese_chinese_or_korean_are_several(who: str) -> None:
    assert several_characters(who)
    assert caption(f"Character: {who}; Motion: dance") == f"{who} dance."


@pytest.mark.parametrize("who", ["Qiqi", "美咲", "和子"])
def test_one_name_is_one(who: str) -> None:
    assert not several_characters(who)


@pytest.mark.parametrize("weather", ["rainy", "cloudy", "snowy", "windy", "stormy", "foggy", "sunny"])
def test_weather_in_time_is_a_day_of_it(weather: str) -> None:
    assert caption(f"Character: Qiqi; Motion: dance; Time: {weather}") == f"Qiqi dances, on a {weather} day."


@pytest.mark.parametrize(("motion", "said"), [
    ("a jog", "Qiqi goes for a jog."), ("2 songs", "Qiqi sings 2 songs."), ("an apple", "Qiqi eats an apple."),
    ("a cup of tea", "Qiqi has a cup of tea."), ("a long hike", "Qiqi goes for a long hike."),
    ("3 hugs", "Qiqi gives 3 hugs."), ("the splits", "Qiqi does the splits."), ("a dance", "Qiqi dances."),
])
def test_noun_phrase_motions_take_their_own_verb(motion: str, said: str) -> None:
    assert caption(f"Character: Qiqi; Motion: {motion}") == said


def test_several_characters_go_for_a_jog() -> None:
    assert caption("Character: Qiqi and Yuzu; Motion: a jog") == "Qiqi and Yuzu go for a jog."


@pytest.mark.parametrize(("text", "said"), [
    ("Character: Qiqi; Motion: runs", "Qiqi runs."),
    ("Character: Qiqi; Motion: is dancing", "Qiqi is dancing."),
    ("Character: Qiqi; Motion: sits and reads", "Qiqi sits and reads."),
    ("Character: Qiqi; Motion: slowly walks home", "Qiqi slowly walks home."),
])
def test_one_character_is_as_before(text: str, said: str) -> None:
    assert caption(text) == said
