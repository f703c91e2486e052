"""`play` going on from a turn made with an engine that can't run here (AnimeGamer, on a machine
without its weights or a GPU) makes the new turn with the default engine and says which other
engine runs here (the shipped mini, AnimeGamer's small stand-in): it went on in sketch with no
word of mini."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project


def test_the_note_names_the_engines_that_run_here(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    Project.create(tmp_path / "story").close()
    story = tmp_path / "story.kamishibai"
    small = ["--setting", "width=64", "--setting", "height=48", "--setting", "frames=3"]
    assert main(["play", str(story), "-i", "Character: Qiqi; Motion: walk.", "--json", *small]) == 0
    with sqlite3.connect(story / "project.db") as db:  # as made on a machine with AnimeGamer's weights
        db.execute("UPDATE takes SET engine = 'animegamer'")
    weights = tmp_path / "weights"
    weights.mkdir()  # no animegamer/ here; the app's own mini weights are used
    capsys.readouterr()
    assert main(["play", str(story), "-i", "Character: Qiqi; Motion: run.", "--json", *small,
                 "--checkpoints", str(weights)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["engine"] == "sketch"
    assert "the new turn is made with sketch (mini also runs here: --engine mini)." in err, err
