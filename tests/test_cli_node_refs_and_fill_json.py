"""Node references on the command line and `fill --run --json`.

QA: `play --parent ""` and `fill --leaf ""` (a script's empty variable) were read as if the
option were not given: `play` continued the most recently created turn and `fill` queued
every branch, both without a word. An id copied from `tree`'s indented listing with its
spaces was "not in this project". `fill --run --json` printed the jobs before running them,
so every job read "queued" with no take after they had all been generated."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import pytest
from stop_midway import stop_midway, takes_started  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project

DEMO = """Character: Qiqi; Motion: run; Background: day town.
Character: Qiqi; Motion: jump; Background: day town.
## branch after 1
Character: Yuzu; Motion: wave; Background: day street.
"""


@pytest.fixture
def imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAMISHIBAI_ENGINE_HOST", "in-process")  # the sketch engine, without a child process
    demo = tmp_path / "demo.txt"
    demo.write_text(DEMO, encoding="utf-8")
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "story")]) == 0
    return tmp_path / "story.kamishibai"


def _turns(path: Path) -> int:
    with Project.open(path, read_only=True) as project:
        return len(project.tree.nodes) - 1


def _queued(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    capsys.readouterr()
    assert main(["queue", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("empty", ["", "   "])
def test_an_empty_parent_is_refused_not_taken_as_the_default(imported: Path, empty: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["play", str(imported), "-i", "Motion: wave.", "--parent", empty, "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "The node id is empty." in err, err
    assert _turns(imported) == 3  # no turn was added anywhere


@pytest.mark.parametrize("empty", ["", " "])
def test_an_empty_leaf_is_refused_not_taken_as_every_branch(imported: Path, empty: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["fill", str(imported), "--leaf", empty]) == 2
    assert "The node id is empty." in capsys.readouterr().err
    assert _queued(imported, capsys) == []  # nothing was queued


def test_an_id_with_the_spaces_of_trees_listing_is_found(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Project.open(imported, read_only=True) as project:
        leaf = next(node.id for node in project.tree.nodes.values() if node.instruction.character == "Yuzu")
    capsys.readouterr()
    assert main(["story", str(imported), f"  {leaf[:6]} ", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["node"] == leaf


def test_an_ambiguous_prefix_names_the_ids_it_matches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "long.txt"  # 20 turns and the start: two ids share a first character at least
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n" * 20, encoding="utf-8")
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "long")]) == 0
    with Project.open(tmp_path / "long.kamishibai", read_only=True) as project:
        ids = sorted(project.tree.nodes)
    a, b = max(itertools.pairwise(ids), key=lambda pair: len(_common(*pair)))  # the pair that shares the most
    prefix = _common(a, b)
    assert prefix
    capsys.readouterr()
    assert main(["story", str(tmp_path / "long.kamishibai"), prefix]) == 2
    err = capsys.readouterr().err
    matches = [node_id for node_id in ids if node_id.startswith(prefix)]
    assert f"matches {len(matches)} nodes; give more characters of the id" in err, err
    assert all(node_id in err for node_id in matches[:5]), err


def _common(a: str, b: str) -> str:
    size = 0
    while size < min(len(a), len(b)) and a[size] == b[size]:
        size += 1
    return a[:size]


def test_fill_run_json_says_how_each_job_ended(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["fill", str(imported), "--run", "--quiet", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert len(listed) == 3
    assert [job["status"] for job in listed] == ["done"] * 3
    with Project.open(imported, read_only=True) as project:
        takes = project.tree.takes
        assert all(job["take"] in takes and takes[str(job["take"])].node_id == job["node"] for job in listed)
        assert all(job["finished_at"] for job in listed)


def test_fill_json_without_run_lists_the_jobs_queued(imported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["fill", str(imported), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [job["status"] for job in listed] == ["queued"] * 3
    assert [job["id"] for job in _queued(imported, capsys)] == [job["id"] for job in listed]


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_ctrl_c_during_fill_run_json_still_prints_each_job_as_it_ended(tmp_path: Path) -> None:
    demo = tmp_path / "long.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n" * 12, encoding="utf-8")
    project = tmp_path / "long.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    code, out, err = stop_midway(["fill", str(project), "--run", "--quiet", "--json", "--setting", "frames=120"],
                                 takes_started(project))
    assert code == 130, err
    listed = json.loads(out)  # one whole document, even when stopped
    assert len(listed) == 12
    statuses = {job["status"] for job in listed}
    assert statuses <= {"done", "interrupted", "queued"} and statuses & {"interrupted", "queued"}, statuses
    assert statuses & {"done", "interrupted"}, "the job it was running is listed as it ended, not as queued"
    with Project.open(project, read_only=True) as opened:
        assert all(job["take"] in opened.tree.takes for job in listed if job["status"] == "done")
