"""A Motion field written as a whole clause, subject and all, is its subject's turn.

A new turn's keyboard starts in the Motion field, so authors type sentences there: "Yuzu reads a
book in the library", with no Character field, was drawn as the branch's lead (Qiqi) by both
engines, with no word of it; only the Character field and the free text chose who acts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main
from studio.core import StoryTree
from studio.core.tree import motion_subject
from studio.storage import Project
from tests.core.cast_story import turns_in_a_row

CAST = ["Qiqi", "Yuzu", "Taro"]


def _tree(*texts: str) -> StoryTree:
    return turns_in_a_row(CAST, *texts)


@pytest.mark.parametrize(("motion", "subject"), [
    ("Yuzu reads a book in the library", "Yuzu"),
    ("yuzu runs", "Yuzu"),
    ("  Taro, slowly, walks home", "Taro"),
    ("waves to Yuzu", ""),  # Yuzu is waved to
    ("Yuzu", ""),  # a name alone is no clause
    ("Yuzu.", ""),
    ("Yuzuki runs", ""),  # another name that starts with a cast member's
    ('"Yuzu runs" she says', ""),  # a quoted line is said, not done
])
def test_the_subject_is_a_cast_member_starting_the_clause(motion: str, subject: str) -> None:
    assert motion_subject(motion, CAST) == subject


def test_the_story_says_the_subject_acts_and_the_field_and_free_text_still_come_first() -> None:
    tree = _tree("Character: Qiqi; Motion: run", "Motion: Yuzu reads a book", "Motion: waves to Taro",
                 "Character: Qiqi; Motion: Taro sits", "Taro waves. Motion: Yuzu runs")
    assert [tree.acting_character(f"n{k}") for k in range(5)] == ["Qiqi", "Yuzu", "Yuzu", "Qiqi", "Taro"]


@pytest.fixture
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    path = tmp_path / "story.kamishibai"
    assert main(["new", str(path)]) == 0  # with the default cast: Qiqi first, Yuzu among them
    project = Project.open(path)
    try:
        assert project.tree.cast_names()[0] == "Qiqi" and "Yuzu" in project.tree.cast_names()
    finally:
        project.close()
    return path


@pytest.mark.parametrize("engine", ["sketch", "mini"])
def test_both_engines_draw_the_subject(story: Path, engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["play", str(story), "--json", "--engine", engine, "--setting", "steps=1" if engine == "mini"
                 else "frames=4", "-i", "Motion: Yuzu runs in the park"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["character"] == "Yuzu"
    assert played["understood"]["character"] == "Yuzu", played
    assert not [w for w in played["warnings"] if "Yuzu" in w], played["warnings"]
