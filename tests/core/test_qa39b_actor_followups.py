"""Who acts in a turn: follow-ups to the pronoun and several-character reading.

A Latin cast name written straight before a Japanese, Chinese or Korean particle or verb
("Qiqiは走る", "Qiqi가 달린다", "Qiqi在公园跑步") was no name, so the turn went on with the
character before; a pronoun in the Character field ("Character: she") was a stranger called
"she"; Latin names joined by Korean 와/과/하고/랑 were one stranger "Qiqi와 Yuzu"; and a
Character field naming someone twice said nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core import AddTurn, CharacterState, Document, StateScope, StoryTree
from studio.core.instruction import Instruction
from studio.core.joined_names import character_names
from studio.core.model import CastMember, Node
from studio.core.subject import joined_subject, opening_cjk_name, unlisted_subject
from studio.core.tree import ONE, SEVERAL, field_actor, field_pronoun

CAST = ("Qiqi", "Yuzu", "Sam")


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


@pytest.mark.parametrize("text", [
    "Qiqi는 공원에서 달린다", "Qiqi가 달린다", "Qiqiは走る", "Qiqi在公园跑步", "Qiqi跑步", "公园里Qiqi在跑步",
])
def test_a_latin_name_before_a_cjk_particle_or_verb_takes_the_turn(text: str) -> None:
    assert actors(story(*CAST), "Sam walks in the park", text) == ["Sam", "Qiqi"]


def test_a_latin_name_inside_a_longer_latin_word_is_still_no_name() -> None:
    assert actors(story(*CAST), "Sam walks in the park", "Qiqis는 달린다") == ["Sam", "Sam"]


@pytest.mark.parametrize(("field", "pronoun"), [
    ("she", ONE), ("Her", ONE), ("彼女", ONE), ("그녀", ONE), ("They", SEVERAL), ("彼ら", SEVERAL),
    ("she and Yuzu", ONE), ("Qiqi", ""), ("Shelly", ""), ("Yuzu and her", ""),
])
def test_field_pronouns(field: str, pronoun: str) -> None:
    assert field_pronoun(field, CAST) == pronoun


def test_a_cast_member_called_like_a_pronoun_is_their_name() -> None:
    assert field_pronoun("It", ["It", "Qiqi"]) == ""
    assert field_actor("It", ["It", "Qiqi"]) == "It"


@pytest.mark.parametrize("field", ["she", "Her", "They", "彼女"])
def test_a_pronoun_in_the_character_field_goes_on_with_the_character_before(field: str) -> None:
    assert field_actor(field, CAST) == ""
    assert actors(story(*CAST), "Yuzu walks in the park", f"Character: {field}; Motion: run") == ["Yuzu", "Yuzu"]


@pytest.mark.parametrize(("field", "names", "actor"), [
    ("Qiqi와 Yuzu", ["Qiqi", "Yuzu"], "Qiqi"),
    ("Qiqi 와 Yuzu", ["Qiqi", "Yuzu"], "Qiqi"),
    ("Qiqi과 Yuzu", ["Qiqi", "Yuzu"], "Qiqi"),
    ("Qiqi하고 Yuzu", ["Qiqi", "Yuzu"], "Qiqi"),
    ("Qiqi랑 Yuzu", ["Qiqi", "Yuzu"], "Qiqi"),
    ("Bob과 Yuzu", ["Bob", "Yuzu"], "Yuzu"),
    ("민수와 Yuzu", ["민수", "Yuzu"], "Yuzu"),
    ("민수와 지수", ["민수", "지수"], "민수"),
])
def test_latin_names_joined_in_korean(field: str, names: list[str], actor: str) -> None:
    assert character_names(field, CAST) == names
    assert field_actor(field, CAST) == actor


def test_a_korean_joined_field_is_the_first_cast_members_turn() -> None:
    assert actors(story(*CAST), "Sam walks", "Character: Qiqi와 Yuzu; Motion: 춤") == ["Sam", "Qiqi"]


@pytest.mark.parametrize(("text", "name"), [
    ("Hanaは走る", "Hana"), ("Hana가 달린다", "Hana"), ("Hana在公园跑步", "Hana"), ("She는 달린다", ""),
])
def test_a_latin_name_opening_a_cjk_sentence(text: str, name: str) -> None:
    assert opening_cjk_name(text) == name


@pytest.mark.parametrize(("text", "names"), [
    ("Hana와 Qiqi가 춤춘다", ["Hana", "Qiqi"]),
    ("Hana 와 Qiqi가 춤춘다", ["Hana", "Qiqi"]),
    ("HanaとQiqiが踊る", ["Hana", "Qiqi"]),
    ("Hana和Qiqi在跳舞", ["Hana", "Qiqi"]),
])
def test_latin_names_joined_as_a_cjk_subject(text: str, names: list[str]) -> None:
    assert joined_subject(text) == names


@pytest.mark.parametrize(("text", "said"), [
    ("Hanaは走る", "'Hana' is not in the cast: the turn shows Yuzu"),
    ("Hana와 Qiqi가 춤춘다", "'Hana' is not in the cast: the turn draws only Qiqi"),
])
def test_a_latin_name_outside_the_cast_in_a_cjk_sentence_is_warned_about(text: str, said: str) -> None:
    document = story(*CAST)
    actors(document, "Yuzu walks", text)
    assert said in unlisted_subject(document.tree, "n1")


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"}
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, check=False, env=env)


def play(tmp_path: Path, *texts: str) -> list[dict[str, object]]:
    if not (tmp_path / "p.kamishibai").exists():
        assert kamishibai("new", "p", cwd=tmp_path).returncode == 0
    small = ("--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
    done = kamishibai("play", "p.kamishibai", *texts, *small, "--seed", "1", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    turns = json.loads(done.stdout)
    assert isinstance(turns, list)
    return turns


def _drawn(turn: dict[str, object]) -> tuple[object, object]:
    understood = turn["understood"]
    assert isinstance(understood, dict)
    return turn["character"], understood["character"]


def _warnings(turn: dict[str, object]) -> list[str]:
    warnings = turn["warnings"]
    assert isinstance(warnings, list)
    return [str(warning) for warning in warnings]


def test_play_draws_a_latin_name_before_cjk_as_the_turns_character(tmp_path: Path) -> None:
    texts = ("Qiqi는 공원에서 달린다", "Qiqi가 달린다", "Qiqiは走る", "Qiqi在公园跑步", "Qiqi跑步")
    for text in texts:
        turns = play(tmp_path, "Yuzu walks in the park", text)
        assert _drawn(turns[1]) == ("Qiqi", "Qiqi"), text


def test_play_character_fields_with_pronouns_korean_joiners_and_repeats(tmp_path: Path) -> None:
    turns = play(tmp_path, "Yuzu walks in the park", "Character: she; Motion: run", "Character: Her; Motion: wave",
                 "Character: Qiqi와 Yuzu; Motion: 춤", "Character: Qiqi and Qiqi; Motion: run")
    assert [_drawn(turn) for turn in turns] == [("Yuzu", "Yuzu")] * 3 + [("Qiqi", "Qiqi")] * 2
    assert not any("not in the cast" in warning for turn in turns for warning in _warnings(turn))
    assert "'Qiqi' is named more than once in the Character field: drawn once" in _warnings(turns[4])


def test_play_several_names_outside_the_cast(tmp_path: Path) -> None:
    turns = play(tmp_path, "Character: Bob and Tom; Motion: run", "Character: Bob, Qiqi and Yuzu; Motion: run")
    assert [_drawn(turn) for turn in turns] == [("Bob", "Bob"), ("Qiqi", "Qiqi")]
    assert "'Bob' not in the cast, drawn with a generated look" in _warnings(turns[0])
    assert any(warning.startswith("'Tom' is not in the cast") for warning in _warnings(turns[0]))
    assert any(warning.startswith("'Bob' is not in the cast") for warning in _warnings(turns[1]))


def test_play_a_pronoun_joined_with_a_name_in_the_character_field(tmp_path: Path) -> None:
    turns = play(tmp_path, "Yuzu walks in the park", "Character: she and Qiqi; Motion: dance",
                 "Character: Qiqi and her; Motion: dance")
    assert [_drawn(turn) for turn in turns] == [("Yuzu", "Yuzu"), ("Yuzu", "Yuzu"), ("Qiqi", "Qiqi")]
    assert not any("not in the cast" in warning for turn in turns for warning in _warnings(turn))
