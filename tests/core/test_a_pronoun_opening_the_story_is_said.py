"""A pronoun as the story's very first turn says whom it shows.

A pronoun subject goes on with the character of the turn before; "She walks in the park" as
the first turn has none, and acted as the cast's first member without a word. The turn now
warns, naming who it shows and how to choose, in English, Japanese, Chinese and Korean and
for a pronoun in the Character field; a later turn, or a first turn whose subject is a name,
is not warned about."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core import AddTurn, CharacterState, Document, StoryTree
from studio.core.instruction import Instruction
from studio.core.model import Node
from studio.core.subject import first_turn_pronoun, unlisted_subject

from .cast_story import add_turn, cast_story

SAID = ("The turn's subject is a pronoun, and no turn comes before it to say whom it stands for: the turn shows "
        "Aoi, the cast's first member; write 'Character: Aoi;' in the instruction (or a name in the text) to say "
        "who acts.")


@pytest.mark.parametrize("text", [
    "She walks in the park", "Exhausted, she sits down", "They laugh together", "Character: she; Motion: walk",
    "彼女は公園を歩く", "她在公园散步", "그녀는 공원에서 걷는다",
])
def test_a_pronoun_opening_the_story_names_who_is_shown(text: str) -> None:
    document = cast_story()
    assert add_turn(document, "root", "n0", text) == SAID
    assert document.tree.acting_character("n0") == "Aoi"


@pytest.mark.parametrize("texts", [
    ("Yuzu walks in the park", "She talks to Aoi"),
    ("Character: Yuzu; Motion: walk", "Character: she; Motion: run"),
])
def test_a_pronoun_after_a_turn_goes_on_without_a_word(texts: tuple[str, str]) -> None:
    document = cast_story()
    add_turn(document, "root", "n0", texts[0])
    assert add_turn(document, "n0", "n1", texts[1]) == ""
    assert document.tree.acting_character("n1") == "Yuzu"


@pytest.mark.parametrize("text", ["Yuzu says she is tired", "Aoi walks", '"She is late," Yuzu says',
                                  "Character: Yuzu; Motion: walk"])
def test_a_first_turn_about_someone_named_is_not_warned_about(text: str) -> None:
    assert add_turn(cast_story(), "root", "n0", text) == ""


def test_a_name_outside_the_cast_is_said_rather_than_the_pronoun() -> None:
    said = add_turn(cast_story(), "root", "n0", "Hana says she is tired")
    assert said.startswith("'Hana' is not in the cast")


def test_without_a_cast_the_engine_s_own_character_is_named() -> None:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState())
    document = Document(StoryTree.from_entities([root]))
    document.apply(AddTurn("root", "She waves", node_id="n0"))
    said = first_turn_pronoun(document.tree, "n0")
    assert "the first character of the engine's own cast" in said
    assert said == unlisted_subject(document.tree, "n0")


def test_play_prints_the_warning_with_the_take(tmp_path: Path) -> None:
    """A real project and the sketch engine: the first take's warnings carry it."""
    env = {**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"}
    repo = Path(__file__).resolve().parents[2]
    created = subprocess.run([sys.executable, "-m", "studio", "new", str(tmp_path / "story")], capture_output=True,
                             text=True, cwd=repo, timeout=300, check=False, env=env)
    assert created.returncode == 0, created.stderr
    played = subprocess.run([sys.executable, "-m", "studio", "play", str(tmp_path / "story.kamishibai"),
                             "She walks in the park", "--json", "--setting", "frames=2", "--setting", "width=64",
                             "--setting", "height=48"], capture_output=True, text=True, cwd=repo, timeout=300,
                            check=False, env=env)
    assert played.returncode == 0, played.stderr
    turn = json.loads(played.stdout)
    [warning] = [w for w in turn["warnings"] if "pronoun" in w]
    assert f"the turn shows {turn['character']}, the cast's first member" in warning
