"""Who acts in a turn whose subject is a pronoun, or several characters.

"Qiqi walks in the park" -> "She talks to Yuzu" credited the second turn to Yuzu (the first cast
member named anywhere), so Yuzu's state changed and the clip drew Yuzu with a stranger. A
pronoun subject now goes on with the character before; "Character: Qiqi and Yuzu" is Qiqi's
turn (not a stranger called "Qiqi and Yuzu"), and a subject of several that names someone
outside the cast says so, in English, Japanese, Korean and Chinese."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, CharacterState, Document, StateScope, StoryTree
from studio.core.instruction import Instruction
from studio.core.joined_names import character_names
from studio.core.model import CastMember, Node, Take
from studio.core.state import StateDeltas
from studio.core.subject import joined_subject, unlisted_subject
from studio.core.tree import ONE, SEVERAL, field_actor, subject_pronoun


def story(*names: str) -> Document:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState(),
                state_scope=StateScope.CHARACTER)
    cast = [CastMember(f"c{index}", name) for index, name in enumerate(names)]
    return Document(StoryTree.from_entities([root, *cast]))


def actors(document: Document, *texts: str) -> list[str]:
    parent, out = "root", []
    for index, text in enumerate(texts):
        document.apply(AddTurn(parent, text, node_id=f"n{index}"))
        parent = f"n{index}"
        out.append(document.tree.acting_character(parent))
    return out


@pytest.mark.parametrize("texts", [
    ("Qiqi walks in the park", "She talks to Yuzu", "She hugs Yuzu"),
    ("Qiqi walks in the park", "Exhausted, she sits down on a bench", "She chats with Yuzu for a while",
     "They laugh together"),
    ("Qiqi walks in the park", "Then he waves at Yuzu", "It runs after Yuzu"),
    ("Qiqi walks in the park", "彼女はYuzuと話す", "她和Yuzu聊天", "그녀는 Yuzu와 이야기한다", "彼らは笑う"),
])
def test_a_pronoun_subject_goes_on_with_the_character_before(texts: tuple[str, ...]) -> None:
    assert actors(story("Qiqi", "Yuzu"), *texts) == ["Qiqi"] * len(texts)


@pytest.mark.parametrize(("texts", "expected"), [
    (("Qiqi walks", "Yuzu says she is tired"), ["Qiqi", "Yuzu"]),  # named before the pronoun
    (("Qiqi walks", "Yuzu hugs her"), ["Qiqi", "Yuzu"]),  # "her" as an object
    (("Qiqi walks", "The dog follows her to Yuzu"), ["Qiqi", "Yuzu"]),
    (("Qiqi walks", "他的狗跑向 Yuzu"), ["Qiqi", "Yuzu"]),  # 他的: "his", not a subject
    (("Qiqi walks", "Shelly waves at Yuzu"), ["Qiqi", "Yuzu"]),  # a name that starts like "she"
])
def test_a_name_before_any_subject_pronoun_still_takes_the_turn(texts: tuple[str, ...], expected: list[str]) -> None:
    assert actors(story("Qiqi", "Yuzu"), *texts) == expected


def test_the_state_change_goes_to_the_character_a_pronoun_stands_for() -> None:
    document = story("Qiqi", "Yuzu")
    actors(document, "Qiqi walks in the park", "She talks to Yuzu")
    take = Take(id="t1", node_id="n1", engine="sketch", deltas=StateDeltas(social=3), status="done")
    document.apply(AddTake(take))
    states = document.tree.cast_states("n1")
    assert set(states) == {"Qiqi"}
    assert document.tree.state_of("n1") == document.tree.state_before("n1").apply(StateDeltas(social=3))


@pytest.mark.parametrize(("field", "names", "actor"), [
    ("Qiqi and Yuzu", ["Qiqi", "Yuzu"], "Qiqi"),
    ("Mei and Qiqi", ["Mei", "Qiqi"], "Qiqi"),  # the first of the cast acts
    ("Qiqi, Yuzu & Aoi", ["Qiqi", "Yuzu", "Aoi"], "Qiqi"),
    ("美咲とゆず", ["美咲", "ゆず"], "美咲"),
    ("小明和小红", ["小明", "小红"], "小明"),
    ("민수와 지수", ["민수", "지수"], "민수"),
    ("민준과 지수", ["민준", "지수"], "민준"),
    ("Salt and Pepper", ["Salt and Pepper"], "Salt and Pepper"),  # a cast member's whole name
    ("和子", ["和子"], "和子"),  # a name with 和 in it is one name
])
def test_a_character_field_naming_several(field: str, names: list[str], actor: str) -> None:
    cast = ["Qiqi", "Yuzu", "Salt and Pepper"]
    assert character_names(field, cast) == names
    assert field_actor(field, cast) == actor


def test_a_character_field_naming_two_of_the_cast_is_the_first_ones_turn() -> None:
    document = story("Qiqi", "Yuzu")
    assert actors(document, "Character: Qiqi and Yuzu; Motion: dance; Background: park",
                  "Character: Mei and Yuzu; Motion: dance") == ["Qiqi", "Yuzu"]


@pytest.mark.parametrize(("text", "expected"), [
    ("She talks to Yuzu", ONE), ("They laugh together", SEVERAL), ("Her and Yuzu dance", ONE),
    ("彼らは公園で笑う", SEVERAL), ("他们在公园笑", SEVERAL), ("그들은 웃는다", SEVERAL),
    ("It rains on Yuzu", ""), ("그 사람은 달린다", ""), ("其他人在跑", ""), ("Qiqi says she is late", ""),
])
def test_subject_pronouns(text: str, expected: str) -> None:
    assert subject_pronoun(text, ["Qiqi", "Yuzu"]) == expected


@pytest.mark.parametrize(("text", "names"), [
    ("Qiqi and Mei dance in the park", ["Qiqi", "Mei"]),
    ("Qiqi, Yuzu and Mei dance", ["Qiqi", "Yuzu", "Mei"]),
    ("美咲とゆずが公園で踊る", ["美咲", "ゆず"]),
    ("민수와 지수가 공원에서 춤춘다", ["민수", "지수"]),
    ("小明和小红在公园跳舞", ["小明", "小红"]),
    ("Qiqi walks and Yuzu runs", []),
    ("Qiqi dances with Mei and Yuzu", []),
    ("美咲は公園で踊る", []),
])
def test_joined_subjects(text: str, names: list[str]) -> None:
    assert joined_subject(text) == names


@pytest.mark.parametrize(("text", "said"), [
    ("Qiqi and Mei dance in the park", "'Mei' is not in the cast: the turn draws only Qiqi"),
    ("美咲とゆずが公園で踊る", "'美咲' and 'ゆず' are not in the cast: the turn shows Qiqi"),
    ("민수와 지수가 공원에서 춤춘다", "'민수' and '지수' are not in the cast: the turn shows Qiqi"),
    ("小明和小红在公园跳舞", "'小明' and '小红' are not in the cast: the turn shows Qiqi"),
])
def test_a_subject_of_several_names_who_is_not_in_the_cast(text: str, said: str) -> None:
    document = story("Qiqi", "Yuzu")
    document.apply(AddTurn("root", text, node_id="n0"))
    assert said in unlisted_subject(document.tree, "n0")


def test_a_subject_of_several_all_in_the_cast_says_nothing() -> None:
    document = story("Qiqi", "Yuzu")
    document.apply(AddTurn("root", "Qiqi and Yuzu dance in the park", node_id="n0"))
    assert unlisted_subject(document.tree, "n0") == ""


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"}
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False, env=env)


def test_play_credits_a_pronoun_turn_to_the_character_before(tmp_path: Path) -> None:
    assert kamishibai("new", "p", cwd=tmp_path).returncode == 0
    small = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
    done = kamishibai("play", "p.kamishibai", "Qiqi walks in the park", "She talks to Yuzu", "She hugs Yuzu",
                      "They laugh together", *small, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    turns = json.loads(done.stdout)
    assert [turn["character"] for turn in turns] == ["Qiqi"] * 4
    assert [turn["understood"]["character"] for turn in turns] == ["Qiqi"] * 4
    # each turn moves on from the state the one before left Qiqi in
    for before, after in pairwise(turns):
        moved = {key: before["state"][key] + after["change"][key] for key in after["change"]}
        assert after["state"] == moved
