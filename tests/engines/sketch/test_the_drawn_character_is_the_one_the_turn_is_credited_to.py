"""The sketch engine draws the character the story credits the turn to
(``StoryTree.acting_character``): a name said in quotes is nobody in the turn, and a script
line's speaker is its character. Before, the story credited '"Hi Yuzu!" says Aoi' to Aoi while
the clip drew Yuzu, so the state changed for one character and the picture showed another."""

from __future__ import annotations

import pytest

from studio.core import AddTurn, CharacterState, Document, StateScope, StoryTree
from studio.core.instruction import Instruction
from studio.core.model import Node
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.defaults import load_default_cast

from ..sketch_helpers import SMALL, predict

CAST = load_default_cast()


def _credited(text: str) -> str:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState(),
                state_scope=StateScope.CHARACTER)
    document = Document(StoryTree.from_entities([root, *CAST]))
    document.apply(AddTurn("root", text, node_id="n0"))
    return document.tree.acting_character("n0")


@pytest.mark.parametrize(("text", "drawn"), [
    ('"Hi Yuzu!" says Aoi', "Aoi"),
    ("Aoi waves \u201cgood night, Qiqi\u201d", "Aoi"),
    ('Aoi: "Yuzu, I am home"', "Aoi"),
    ("Sosuke: \u300cQiqi!\u300d", "Sosuke"),
    ("Yuzu waves at Qiqi", "Yuzu"),
])
def test_the_clip_draws_whom_the_turn_is_credited_to(text: str, drawn: str) -> None:
    prediction = predict(SketchEngine(), text, settings=SMALL, cast=CAST)
    assert prediction.conditioning["character"] == drawn
    assert _credited(text) == drawn
