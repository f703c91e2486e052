"""Who a free-text turn is about, when it names someone outside the cast.

``play ja2 "美咲が夜の港でゆっくり歩く"`` gave no warning at all, and the English "Misaki walks
slowly at the harbour at night" warned that "the turn shows another character" while the
sketch engine drew Qiqi, the cast's first member. The warning now names who is drawn, and
Japanese, Korean and Chinese turns get it too. A word that is part of a cast member's name
("Ren" of "Ōtsuki Ren") is pointed to that member's full name, not to a new cast member."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core import AddTurn, CharacterState, Document, StoryTree
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location, Node
from studio.core.subject import drawn_character, opening_cjk_name, opening_name, unlisted_subject


def story(*names: str) -> Document:
    root = Node(id="root", parent_id=None, instruction=Instruction(raw=""), start_state=CharacterState())
    cast = [CastMember(f"c{index}", name) for index, name in enumerate(names)]
    return Document(StoryTree.from_entities([root, *cast, Location("l1", "Hana Park")]))


def warning(document: Document, parent: str, node_id: str, text: str) -> str:
    document.apply(AddTurn(parent, text, node_id=node_id))
    return unlisted_subject(document.tree, node_id)


@pytest.mark.parametrize(("text", "name"), [
    ("美咲が夜の港でゆっくり歩く", "美咲"),
    ("ミサキは公園で走る", "ミサキ"),
    ("美咲さんが手を振る", "美咲"),
    ("민수가 밤에 공원에서 달린다", "민수"),
    ("민준이 공원에서 달린다", "민준"),
    ("민준은 달린다", "민준"),
    ("小明在公园跑步", "小明"),
    ("小明慢慢走", "小明"),
    # not a name
    ("彼女が歩く", ""),
    ("夜の港で美咲が歩く", ""),
    ("雨が降る", ""),
    ("公園は静かだ", ""),
    ("みんなが歩く", ""),
    ("민수이 달린다", ""),  # the particle does not fit the name's last sound
    ("오늘은 비가 온다", ""),
    ("晚上小明在公园跑步", ""),
    ("我们在公园", ""),
    ("Misaki walks", ""),
])
def test_the_opening_subject_of_a_cjk_sentence(text: str, name: str) -> None:
    assert opening_cjk_name(text) == name


def test_latin_names_are_still_read_only_by_their_capital() -> None:
    assert opening_name("ハナが手を振る") == ""
    assert opening_name("Misaki walks slowly") == "Misaki"


@pytest.mark.parametrize("text", ["Misaki walks slowly at the harbour at night", "美咲が夜の港でゆっくり歩く",
                                  "민수가 밤에 공원에서 달린다", "小明在公园跑步"])
def test_the_story_start_names_the_first_cast_member_as_the_engine_draws(text: str) -> None:
    document = story("Aoi", "Yuzu")
    said = warning(document, "root", "a", text)
    assert "is not in the cast: the turn shows Aoi;" in said, said
    assert "another character" not in said
    assert drawn_character(document.tree, "a") == "Aoi"


def test_a_turn_that_goes_on_names_who_it_goes_on_with() -> None:
    document = story("Aoi", "Yuzu")
    assert warning(document, "root", "a", "Character: Yuzu; Motion: run; Background: day town") == ""
    said = warning(document, "a", "b", "美咲が夜の港でゆっくり歩く")
    assert "'美咲' is not in the cast: the turn shows Yuzu" in said and "Character: 美咲;" in said


def test_no_cast_says_another_character() -> None:
    document = story()
    assert drawn_character(document.tree, "root") == ""
    assert "the turn shows another character" in warning(document, "root", "a", "美咲が歩く")


def test_a_cjk_cast_member_gets_no_warning() -> None:
    document = story("Aoi", "美咲", "민수", "小明")
    for index, text in enumerate(("美咲が夜の港でゆっくり歩く", "민수가 공원에서 달린다", "小明在公园跑步")):
        assert warning(document, "root", f"t{index}", text) == ""


@pytest.mark.parametrize("part", ["Ren", "ren", "Ōtsuki", "Otsuki"])
def test_part_of_a_cast_name_points_to_the_full_name(part: str) -> None:
    document = story("Aoi", "Ōtsuki Ren")
    warning(document, "root", "a", "Character: Ōtsuki Ren; Motion: run; Background: park")
    said = warning(document, "a", "b", f"{part} sleeps in the bedroom 💤")
    if part[0].islower():  # not read as a name at all
        assert said == ""
        return
    if part == "Otsuki":  # another spelling is another name
        assert "add Otsuki to the cast" in said
        return
    assert said.startswith(f"'{part}' is not a name in the cast but part of the cast's Ōtsuki Ren")
    assert "the turn shows Ōtsuki Ren" in said
    assert "'Character: Ōtsuki Ren;'" in said
    assert f"add {part} to the cast" not in said and f"Character: {part};" not in said


def test_part_of_two_cast_names_lists_both() -> None:
    document = story("Aoi", "Ōtsuki Ren", "Ren Tanaka")
    said = warning(document, "root", "a", "Ren sleeps in the bedroom")
    assert "'Character: Ōtsuki Ren;' or 'Character: Ren Tanaka;'" in said
    assert "the turn shows Aoi" in said


REPO = Path(__file__).resolve().parents[2]


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"}
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False, env=env)


def test_the_warning_names_whom_the_sketch_engine_draws(tmp_path: Path) -> None:
    assert kamishibai("new", "ja2", cwd=tmp_path).returncode == 0
    small = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
    for text in ("美咲が夜の港でゆっくり歩く", "Misaki walks slowly at the harbour at night"):
        played = kamishibai("play", "ja2", "--parent", "root", text, "--json", *small, cwd=tmp_path)
        assert played.returncode == 0, played.stderr
        turn = json.loads(played.stdout)
        drawn = turn["understood"]["character"]
        assert drawn
        [said] = [w for w in turn["warnings"] if "is not in the cast" in w]
        assert f"the turn shows {drawn};" in said, (said, drawn)
