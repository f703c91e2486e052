"""`reroll` without --engine picks an engine the user did not name: the current take's, or the
engine of the turn's interrupted job. When that engine can't run here the refusal says which
of the two picked it, and how to choose another; both refusals share their wording but for
that one sentence, and nothing is queued or made."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.storage import Project
from studio.storage.job_store import JobStore

SMALL = ["--setting", "frames=3", "--setting", "width=160", "--setting", "height=112"]
HINT = ("Give --engine NAME to re-roll with another engine (e.g. --engine sketch; `kamishibai doctor` lists "
        "those that run here). Or: ")


def _state(story: Path) -> tuple[int, int, list[tuple[str, str, str]]]:
    """Turns, takes, and every job's (id, status, engine): what a refused re-roll must leave."""
    with Project.open(story, read_only=True) as project:
        jobs = sorted((job.id, job.status.value, job.engine) for job in JobStore(project.database).load())
        return len(project.tree.nodes), len(project.tree.takes), jobs


def _refused(story: Path, node_id: str, capsys: pytest.CaptureFixture[str]) -> str:
    before = _state(story)
    no_weights = str(story.parent / "no-weights")
    Path(no_weights).mkdir(exist_ok=True)  # a folder without weights (a missing one is refused as mistyped)
    assert main(["reroll", str(story), node_id, "--checkpoints", no_weights, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert _state(story) == before  # nothing queued, nothing made
    assert "The animegamer engine can't run here" in err, err
    assert HINT in err, err
    return err


@pytest.fixture(autouse=True)
def _in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")


def test_a_take_made_elsewhere_is_named_as_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Project.create(tmp_path / "story").close()
    story = tmp_path / "story.kamishibai"
    assert main(["play", str(story), "-i", "Character: Qiqi; Motion: walk.", *SMALL, "--seed", "3"]) == 0
    with sqlite3.connect(story / "project.db") as db:
        db.execute("UPDATE takes SET engine = 'animegamer'")
        (node_id,) = db.execute("SELECT node_id FROM takes").fetchone()
    db.close()
    capsys.readouterr()
    err = _refused(story, node_id, capsys)
    assert (f"Turn {node_id}'s current take was made with it, and a re-roll without --engine uses the take's "
            "engine again.") in err, err
    assert "interrupted job" not in err, err


def test_an_interrupted_job_is_named_as_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Qiqi runs\nQiqi jumps\n", encoding="utf-8")
    story = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(story)]) == 0
    assert main(["fill", str(story), *SMALL]) == 0
    # the first turn's job was running with AnimeGamer on another machine when it was killed
    with sqlite3.connect(story / "project.db") as db:
        job_id, node_id = db.execute("SELECT id, node_id FROM jobs WHERE depends_on IS NULL").fetchone()
        db.execute("UPDATE jobs SET status = 'interrupted', started_at = '2026-12-05T10:00:00Z', "
                   "engine = 'animegamer' WHERE id = ?", (job_id,))
    db.close()
    capsys.readouterr()
    err = _refused(story, node_id, capsys)
    assert (f"Turn {node_id}'s interrupted job {job_id} was to make its take with it, and a re-roll without "
            "--engine uses that job's engine.") in err, err
    assert "current take" not in err, err
