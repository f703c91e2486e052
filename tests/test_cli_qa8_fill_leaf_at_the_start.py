"""`kamishibai fill P --leaf root` on a story of several turns without takes said "nothing to
queue: the story has no turns yet", which is wrong (`fill P` then queued them all): it now says
that --leaf named the story's start, whose branch holds no turns, and how to fill the others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.cli import main


def _story(tmp_path: Path, lines: str) -> str:
    demo = tmp_path / "demo.txt"
    demo.write_text(lines, encoding="utf-8")
    project = str(tmp_path / "story.kamishibai")
    assert main(["import-demo", str(demo), "--project", project]) == 0
    return project


def test_fill_with_the_start_as_leaf_says_so_not_that_the_story_is_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = _story(tmp_path, "Character: Qiqi; Motion: run; Background: day town.\n"
                               "Character: Qiqi; Motion: jump; Background: day park.\n")
    capsys.readouterr()
    assert main(["fill", project, "--leaf", "root"]) == 0
    out = capsys.readouterr().out
    assert "no turns yet" not in out
    assert "--leaf names the story's start" in out and "leave out --leaf to fill every branch" in out
    assert main(["queue", project, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # nothing was queued
    assert main(["fill", project]) == 0  # what the message offers: every branch
    assert "queued 2 turns without a take" in capsys.readouterr().out


def test_fill_of_a_story_without_turns_still_says_it_has_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = str(tmp_path / "empty.kamishibai")
    assert main(["new", project]) == 0
    capsys.readouterr()
    assert main(["fill", project, "--leaf", "root"]) == 0
    assert capsys.readouterr().out == "nothing to queue: the story has no turns yet\n"
