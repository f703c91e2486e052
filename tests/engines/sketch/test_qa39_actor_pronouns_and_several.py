"""The sketch engine draws whom the story credits a turn to when its subject is a pronoun or
several characters: "She talks to Yuzu" after Qiqi's turn draws Qiqi talking to Yuzu (it drew
Yuzu with a generated stranger), "They laugh together" keeps the two of the turn before, and
"Character: Qiqi and Yuzu" draws Qiqi with Yuzu as the friend (it drew one stranger called
"Qiqi and Yuzu")."""

from __future__ import annotations

import pytest

from studio.core import AddTurn, CharacterState, Document, StateScope, StoryTree
from studio.core.instruction import Instruction
from studio.core.model import Node
from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.defaults import load_default_cast

from ..sketch_helpers import SMALL, as_turn, predict

CAST = load_default_cast()


def play(*texts: str) -> list[Prediction]:
    """Each turn predicted after the ones before, as a branch."""
    engine, history, out = SketchEngine(), [], []
    for text in texts:
        prediction = predict(engine, text, settings=SMALL, cast=CAST, history=tuple(history))
        history.append(as_turn(prediction, text))
        out.append(prediction)
    return out


def credited(*texts: str) -> list[str]:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState(),
                state_scope=StateScope.CHARACTER)
    document = Document(StoryTree.from_entities([root, *CAST]))
    parent, out = "root", []
    for index, text in enumerate(texts):
        document.apply(AddTurn(parent, text, node_id=f"n{index}"))
        parent = f"n{index}"
        out.append(document.tree.acting_character(parent))
    return out


def drawn(predictions: list[Prediction]) -> list[tuple[str, str]]:
    return [(p.conditioning["character"], p.conditioning["companion"]) for p in predictions]


@pytest.mark.parametrize(("texts", "expected"), [
    (("Qiqi walks in the park", "She talks to Yuzu", "She hugs Yuzu"),
     [("Qiqi", ""), ("Qiqi", "Yuzu"), ("Qiqi", "Yuzu")]),
    (("Exhausted, she sits down on a bench", "She chats with Yuzu for a while", "They laugh together"),
     [("Qiqi", ""), ("Qiqi", "Yuzu"), ("Qiqi", "Yuzu")]),
    (("Aoi walks in the park", "She waves at Qiqi", "They talk with Yuzu"),
     [("Aoi", ""), ("Aoi", "Qiqi"), ("Aoi", "Yuzu")]),  # a friend named after "they" is who they are
    (("Qiqi walks in the park", "Yuzu talks to her"), [("Qiqi", ""), ("Yuzu", "")]),
])
def test_a_pronoun_subject_draws_the_character_before(texts: tuple[str, ...],
                                                      expected: list[tuple[str, str]]) -> None:
    predictions = play(*texts)
    assert drawn(predictions) == expected
    assert [character for character, _ in expected] == credited(*texts)
    assert not any("not in the cast" in w for p in predictions for w in p.warnings)


def test_she_alone_does_not_bring_the_friend_of_the_turn_before() -> None:
    assert drawn(play("Qiqi talks to Yuzu", "She laughs")) == [("Qiqi", "Yuzu"), ("Qiqi", "")]


def test_a_character_field_naming_two_draws_the_first_with_the_second() -> None:
    text = "Character: Qiqi and Yuzu; Motion: dance; Background: park"
    prediction = play(text)[0]
    assert drawn([prediction]) == [("Qiqi", "Yuzu")]
    assert prediction.conditioning["companion_look"]  # drawn as the cast draws Yuzu
    assert not any("not in the cast" in w for w in prediction.warnings)
    assert credited(text) == ["Qiqi"]


def test_a_character_field_naming_someone_outside_the_cast_says_who() -> None:
    prediction = play("Character: Qiqi and Mei; Motion: dance; Background: park")[0]
    assert drawn([prediction]) == [("Qiqi", "")]
    assert any(w.startswith("'Mei' is not in the cast: drawn only Qiqi") for w in prediction.warnings)
    assert not any("'Qiqi and Mei'" in w for w in prediction.warnings)


def test_a_character_field_naming_three_of_the_cast_says_who_is_left_out() -> None:
    prediction = play("Character: Qiqi, Yuzu and Aoi; Motion: talk")[0]
    assert drawn([prediction]) == [("Qiqi", "Yuzu")]
    assert any(w.startswith("'Aoi' is not drawn") for w in prediction.warnings)


def test_a_character_field_naming_strangers_only_draws_the_first() -> None:
    prediction = play("Character: Mei and Hana; Motion: dance")[0]
    assert drawn([prediction]) == [("Mei", "")]
    assert "'Mei' not in the cast, drawn with a generated look" in prediction.warnings
    assert any(w.startswith("'Hana' is not in the cast: drawn only Mei") for w in prediction.warnings)
