"""A turn's stored duration is held on reading to the rule the editor applies when one is
set (0.1 to 600 seconds): one that breaks it (written by another program) reads as unset,
the clip's own length, and is listed among the project's problems."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from studio.core import AddTurn, SetDuration
from studio.core.story import MAX_DURATION_S, MIN_DURATION_S
from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle

LINE = "Character: Qiqi; Motion: run; Background: day town"
BAD = {"NaN text": "'NaN'", "infinite": "9e999", "negative": "-5", "ten million": "1e7", "zero": "0",
       "text": "'abc'", "blob": "x'00ff'", "just over": str(MAX_DURATION_S + 0.001)}


def _project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, LINE, node_id="n1"))
        project.apply(AddTurn("n1", LINE, node_id="n2"))
        project.apply(SetDuration("n1", 4.5))
        project.apply(SetDuration("n2", 2.0))
        return project.path


def _set(path: Path, sql_value: str, node: str = "n1") -> None:
    conn = sqlite3.connect(path / "project.db")
    conn.execute(f"UPDATE nodes SET duration={sql_value}, narration='kept' WHERE id=?", (node,))
    conn.commit()
    conn.close()


@pytest.mark.parametrize("case", list(BAD))
def test_a_bad_stored_duration_reads_as_unset_and_is_a_problem(tmp_path: Path, case: str) -> None:
    path = _project(tmp_path)
    _set(path, BAD[case])
    for read_only in (True, False):
        with Project.open(path, read_only=read_only) as project:
            story = project.tree.node("n1").story
            assert story.duration is None and story.narration == "kept"  # the rest of the row is kept
            assert project.tree.node("n2").story.duration == 2.0
            assert [p for p in project.problems if "n1's stored duration" in p and "0.1 to 600 seconds" in p], \
                project.problems
            assert project.info()["problems"] == project.problems


@pytest.mark.parametrize("seconds", [MIN_DURATION_S, MAX_DURATION_S, 3])
def test_durations_within_the_editors_range_read_as_stored(tmp_path: Path, seconds: float) -> None:
    path = _project(tmp_path)
    _set(path, repr(seconds))
    with Project.open(path, read_only=True) as project:
        assert project.tree.node("n1").story.duration == seconds and project.problems == []


def test_setting_a_duration_again_clears_the_problem(tmp_path: Path) -> None:
    path = _project(tmp_path)
    _set(path, "9e999")
    with Project.open(path) as project:
        project.apply(SetDuration("n1", 3.0))
    with Project.open(path, read_only=True) as project:
        assert project.tree.node("n1").story.duration == 3.0 and project.problems == []


def test_unbundle_applies_the_same_check(tmp_path: Path) -> None:
    path = _project(tmp_path)
    _set(path, "'NaN'")
    with Project.open(path, read_only=True) as project:
        bundle = export_bundle(project, tmp_path / "p.zip")
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert copy.tree.node("n1").story.duration is None
        assert any("n1's stored duration 'NaN'" in p for p in copy.problems), copy.problems


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.parametrize("value", ["'NaN'", "9e999", "-5", "1e7"])
def test_export_and_info_of_a_bad_stored_duration(tmp_path: Path, value: str) -> None:
    """QA: an SRT export said "internal error: ValueError: cannot convert NaN to integer
    ratio"; -5 squeezed the turn to one frame, 1e7 started 80 M frames."""
    folder = tmp_path / "p.kamishibai"
    assert _cli("new", str(folder)).returncode == 0
    played = _cli("play", str(folder), "-i", LINE, "--setting", "frames=3", "--setting", "width=64",
                  "--setting", "height=48", "--json")
    assert played.returncode == 0, played.stderr
    node = json.loads(played.stdout)["node"]
    _set(folder, value, node)
    done = _cli("export", str(folder), "--leaf", node, "--out", str(tmp_path / "e.srt"))
    assert done.returncode == 0, done.stderr
    said = re.search(r"([\d.,]+) s\b", done.stdout)  # "...: 1 turn, 0.38 s, 3 frames; ..."
    assert said is not None, done.stdout
    assert 0 < float(said.group(1).replace(",", "")) < 5  # the clip's own length (3 frames)
    assert f"note: the project was read with a problem: node {node}" in done.stderr  # not silently
    info = _cli("info", str(folder), "--json")
    assert any(f"{node}'s stored duration" in p for p in json.loads(info.stdout)["problems"]), info.stdout
