"""`reroll` without --engine, of a turn whose take was made with an engine that can't run here.

QA: it failed with "The animegamer engine can't run here: Missing .../tokenizer.model" and a
hint to convert AnimeGamer's weights, for a user who never named that engine: a re-roll uses
the current take's engine, which the message did not say, nor how to choose another."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.job_store import JobStore

SMALL = ["--setting", "frames=4", "--setting", "width=160", "--setting", "height=112"]


@pytest.fixture
def made_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """Two turns whose takes say they were made with AnimeGamer (a project from a GPU machine)."""
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    Project.create(tmp_path / "story").close()
    story = tmp_path / "story.kamishibai"
    assert main(["play", str(story), "-i", "Character: Qiqi; Motion: walk.", "-i", "Character: Qiqi; Motion: run.",
                 *SMALL, "--seed", "3"]) == 0
    with sqlite3.connect(story / "project.db") as db:
        db.execute("UPDATE takes SET engine = 'animegamer'")
    capsys.readouterr()
    return story


def _turns(story: Path) -> tuple[list[str], int, int]:
    with Project.open(story, read_only=True) as project:
        tree = project.tree
        turns = [node.id for node in tree.path_to(max(tree.nodes.values(), key=lambda n: n.created_at).id)][1:]
        return turns, len(tree.takes), len(JobStore(project.database).load())


@pytest.mark.parametrize("branch", [[], ["--branch"]])
def test_the_error_says_it_is_the_take_engine_and_how_to_choose_another(
        made_elsewhere: Path, branch: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    turns, takes, jobs = _turns(made_elsewhere)
    no_weights = str(made_elsewhere.parent / "no-weights")
    Path(no_weights).mkdir(exist_ok=True)  # a folder without weights (a missing one is refused as mistyped)
    assert main(["reroll", str(made_elsewhere), turns[0], *branch, "--checkpoints", no_weights, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "The animegamer engine can't run here" in err, err
    assert f"Turn {turns[0]}'s current take was made with it" in err and "--engine NAME" in err, err
    assert _turns(made_elsewhere) == (turns, takes, jobs)  # nothing queued, nothing made
    # the way the message gives works
    assert main(["reroll", str(made_elsewhere), turns[0], *branch, "--engine", "sketch", *SMALL, "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["engine"] for r in results] == ["sketch"] * (len(turns) if branch else 1)
    assert all(Path(r["clip"]).is_file() for r in results)
