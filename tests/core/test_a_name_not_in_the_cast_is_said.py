"""A free-text turn that opens with a name nobody in the cast has ("Hana waves at Aoi") says
so, and who the turn goes on with, instead of silently drawing someone else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core import AddCastMember
from studio.core.model import CastMember
from studio.core.subject import opening_name

from .cast_story import add_turn, cast_story

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("text", "name"), [
    ("Hana waves at the camera", "Hana"),
    ("Hana slowly walks to the station", "Hana"),
    ("Hana is dancing in the rain", "Hana"),
    ("Jean-Luc runs home", "Jean-Luc"),
    ("Émile sits on a bench", "Émile"),
    ("She waves", ""),
    ("Everyone cheers", ""),
    ("Suddenly it rains", ""),
    ("Rain falls on the town", ""),
    ("Hana, smiling, waves", ""),
    ("Hana", ""),
    ("hana waves", ""),
    ("ハナが手を振る", ""),
    ("The cat sleeps", ""),
    ("Hana and Aoi dance", ""),
])
def test_the_opening_subject_is_read_as_a_name_only_before_a_verb(text: str, name: str) -> None:
    assert opening_name(text) == name


def test_an_unknown_opening_name_names_who_the_turn_goes_on_with() -> None:
    document = cast_story()
    assert add_turn(document, "root", "a", "Character: Yuzu; Motion: run; Background: day town") == ""
    warning = add_turn(document, "a", "b", "Hana waves at the camera")
    assert "'Hana' is not in the cast" in warning
    assert "the turn shows Yuzu" in warning and "Character: Hana;" in warning
    # named in the text besides: the turn is that cast member's
    assert "the turn shows Aoi" in add_turn(document, "b", "c", "Hana slowly walks to Aoi")


def test_no_warning_for_the_cast_a_place_or_a_character_field() -> None:
    document = cast_story()
    assert add_turn(document, "root", "a", "Aoi waves at the camera") == ""
    assert add_turn(document, "a", "b", "aoi waves") == ""  # lower case: not read as a name
    assert add_turn(document, "b", "c", "Character: Hana; Motion: wave; Background: day park") == ""
    assert add_turn(document, "c", "d", "Hana waves again") == ""  # the turn before made Hana the character
    document.apply(AddCastMember(CastMember("c3", "Mei")))
    assert add_turn(document, "d", "e", "Mei runs to the station") == ""


def test_a_story_start_without_a_character_names_whom_it_shows() -> None:
    """At the story's start no turn has named anyone: the engines draw the cast's first member,
    and the warning and the turn's acting character say so (it was "another character", and
    the turn's state went to no one)."""
    document = cast_story()
    first = next(iter(document.tree.cast.values())).name
    assert f"the turn shows {first};" in add_turn(document, "root", "a", "Hana waves at the camera")
    assert document.tree.acting_character("a") == first


def test_play_prints_the_warning_with_the_take(tmp_path: Path) -> None:
    """A real project and the sketch engine: the take's warnings carry it (and the window's
    understanding row shows warnings about the cast on the Character chip)."""
    env = {**os.environ, "KAMISHIBAI_ENGINE_HOST": "in-process"}

    def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, cwd=REPO,
                              timeout=300, check=False, env=env)

    assert kamishibai("new", str(tmp_path / "story")).returncode == 0
    played = kamishibai("play", str(tmp_path / "story.kamishibai"), "Hana waves at Yuzu", "--json",
                        "--setting", "frames=2", "--setting", "width=64", "--setting", "height=48")
    assert played.returncode == 0, played.stderr
    turn = json.loads(played.stdout)
    assert turn["character"] == "Yuzu"
    [warning] = [w for w in turn["warnings"] if "Hana" in w]
    assert "'Hana' is not in the cast: the turn shows Yuzu" in warning
