"""`fill --run` generates the turns a `fill` queued before.

QA: `kamishibai fill P` (queue the turns without a take), then `kamishibai fill P --run`
printed "nothing to queue: every turn has a take or is queued already" and exited 0 without
generating anything, though its help says --run generates the queue now. It generates the
turns queued already; `fill` alone says they are queued and how to generate them, and a story
without turns says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project
from studio.storage.media import probe


def test_fill_run_after_fill_generates_the_turns_queued(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    assert main(["fill", str(path)]) == 0
    assert "queued 2 turns without a take" in capsys.readouterr().out
    assert main(["fill", str(path)]) == 0  # nothing new: says what is waiting and how to run it
    out = capsys.readouterr().out
    assert "2 turns queued already" in out and f"kamishibai run-queue {path}" in out, out

    assert main(["fill", str(path), "--run", "--quiet", "--json"]) == 0
    jobs = json.loads(capsys.readouterr().out)
    assert [job["status"] for job in jobs] == ["done", "done"], jobs
    with Project.open(path, read_only=True) as project:
        turns = [node.id for node in project.tree.nodes.values() if not node.is_root]
        assert len(turns) == 2
        for node_id in turns:
            take = project.tree.selected_take(node_id)
            assert take is not None and probe(project.resolve(take.clip_path)).frames > 0
    assert main(["fill", str(path), "--run", "--quiet"]) == 0
    assert "every turn has a take" in capsys.readouterr().out


def test_fill_of_a_story_without_turns_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "empty")]) == 0
    capsys.readouterr()
    assert main(["fill", str(tmp_path / "empty.kamishibai")]) == 0
    assert "the story has no turns yet" in capsys.readouterr().out
