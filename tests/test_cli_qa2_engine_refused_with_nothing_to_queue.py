"""`fill` and `reroll --branch` refuse a typo'd --engine or --setting when there is nothing to queue.

QA: `kamishibai fill P --engine nope` (or a bad `--setting`) on a project where every turn of
the branch already had a take printed `[]` ("nothing to queue") and exited 0: the engine and
its settings were only checked job by job. They are refused as they are when there is work
(a one-line error, exit status 2, nothing queued)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project
from studio.storage.job_store import JobStore

REFUSED = [
    (["--engine", "nope"], "Unknown engine 'nope'."),
    (["--setting", "fram=3"], "Sketch has no setting 'fram'."),
    (["--engine", "sketch", "--setting", "fram=3"], "Sketch has no setting 'fram'."),
]


def _jobs(path: Path) -> int:
    with Project.open(path, read_only=True) as project:
        return len(JobStore(project.database).load())


@pytest.fixture
def generated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two turns, each with its take: `fill` has nothing to queue."""
    return import_demo_project(tmp_path, monkeypatch, generate=True)


@pytest.mark.parametrize(("options", "message"), REFUSED)
def test_fill_with_nothing_to_queue_refuses_a_typo(generated: Path, options: list[str], message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    before = _jobs(generated)
    capsys.readouterr()
    assert main(["fill", str(generated), *options, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err, (out, err)
    assert _jobs(generated) == before  # nothing queued


@pytest.mark.parametrize(("options", "message"), REFUSED)
def test_fill_with_work_refuses_the_same_typo_the_same_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           options: list[str], message: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)  # no takes yet: there is work
    capsys.readouterr()
    assert main(["fill", str(project), *options, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err, (out, err)
    assert _jobs(project) == 0


def test_fill_with_nothing_to_queue_still_takes_good_options(generated: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["fill", str(generated), "--engine", "sketch", "--setting", "frames=9", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["fill", str(generated), "--setting", "frames=9"]) == 0  # the turns' own engine (sketch) has it
    assert "nothing to queue" in capsys.readouterr().out


@pytest.mark.parametrize(("options", "message"), REFUSED)
def test_reroll_branch_of_an_empty_story_refuses_a_typo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        options: list[str], message: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")
    assert main(["new", str(tmp_path / "empty")]) == 0
    path = tmp_path / "empty.kamishibai"
    capsys.readouterr()
    assert main(["reroll", str(path), "root", "--branch", *options, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err, (out, err)
    assert main(["reroll", str(path), "root", "--branch", "--json"]) == 0  # no typo: nothing to re-roll, as before
    assert json.loads(capsys.readouterr().out) == []
