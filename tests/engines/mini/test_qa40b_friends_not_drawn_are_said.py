"""The mini model draws one character: a friend of the cast named in the turn's text ("Qiqi and Yuzu
walk to the park together", "She chats with Yuzu", "eats ramen with Taro and Aoi") is said not to be
drawn, once a turn, as a Character field joining names is. Before, they were left out silently."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.mini.world_rules import friend_warnings, friends_named
from tests.engines.mini.qa40b_shipped import CAST, predict, shipped_engine


def _not_drawn(name: str, actor: str) -> str:
    return (f"'{name}' is not drawn: the mini model draws one character, {actor} (it has no second character "
            f"beside them); name '{name}' in a turn of their own")


@pytest.mark.parametrize(("text", "actor", "friends"), [
    ("Qiqi and Yuzu walk to the park together", "Qiqi", ["Yuzu"]),
    ("She chats with Yuzu", "Qiqi", ["Yuzu"]),
    ("Qiqi eats ramen with Taro and Aoi", "Qiqi", ["Taro", "Aoi"]),
    ("Qiqi thinks about Yuzu", "Qiqi", []),
    ("Qiqi says \"Yuzu is late\"", "Qiqi", []),
    ("Qiqi runs in the park", "Qiqi", []),
])
def test_the_friends_named_are_those_the_sketch_draws_beside(text: str, actor: str, friends: list[str]) -> None:
    assert friends_named(parse_instruction(text), actor, CAST) == friends


def test_a_friend_already_said_is_not_said_twice() -> None:
    said = [_not_drawn("Yuzu", "Qiqi")]
    assert friend_warnings(["Yuzu", "Taro", "Taro"], "Qiqi", said) == [_not_drawn("Taro", "Qiqi")]


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


@pytest.mark.parametrize(("text", "names"), [
    ("Qiqi and Yuzu walk to the park together", ["Yuzu"]),
    ("She chats with Yuzu", ["Yuzu"]),
    ("Qiqi eats ramen with Taro and Aoi", ["Taro", "Aoi"]),
    ("Character: Qiqi, Yuzu; Motion: walk; Background: park", ["Yuzu"]),
    ("Character: Qiqi and Yuzu; Motion: wave at Yuzu", ["Yuzu"]),
])
def test_each_friend_is_said_not_drawn_once(engine, text: str, names: list[str]) -> None:  # type: ignore[no-untyped-def]
    prediction = predict(engine, text)
    actor = prediction.conditioning["character"]
    for name in names:
        assert prediction.warnings.count(_not_drawn(name, actor)) == 1, prediction.warnings
    assert not any("is not a character the mini model knows" in w for w in prediction.warnings)


def test_a_friend_still_counts_as_company(engine) -> None:  # type: ignore[no-untyped-def]
    """The world's rule: a motion done with someone gains 1 social; the story says they are together."""
    alone, together = predict(engine, "Qiqi walks in the park"), predict(engine, "Qiqi and Yuzu walk in the park")
    assert (alone.conditioning["motion"], together.conditioning["motion"]) == ("walk", "walk")
    assert alone.deltas.social == 0 and together.deltas.social >= 1


def test_a_friend_the_model_drew_instead_is_not_said_left_out(engine) -> None:  # type: ignore[no-untyped-def]
    """"Yuzu hugs Qiqi" read as Qiqi is said as a misreading; Qiqi is not said to be left out."""
    prediction = predict(engine, "Yuzu hugs Qiqi")
    drawn = prediction.conditioning["character"]
    assert not any(w.startswith(f"'{drawn}' is not drawn") for w in prediction.warnings), prediction.warnings
