"""`kamishibai info` on a project saved by a newer version (QA: it printed only the error,
where a damaged project gets its folder, size and problem printed first): it prints the same
block, saying the project is not damaged and which schema it holds, then fails with the error
on stderr as before, leaving the file as it was."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.core import AddTurn
from studio.storage import Project


def newer_project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town",
                              node_id="n1"))
        path = project.path
    with sqlite3.connect(path / "project.db") as db:  # what a newer app would have written
        db.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
        db.execute("ALTER TABLE takes ADD COLUMN audio_path TEXT NOT NULL DEFAULT ''")
    db.close()
    return path


def test_info_prints_the_block_then_the_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = newer_project(tmp_path)
    before = hashlib.sha256((path / "project.db").read_bytes()).hexdigest()
    assert main(["info", str(path)]) == 2
    captured = capsys.readouterr()
    lines = {key.strip(): value.strip() for key, _, value in
             (line.partition(":") for line in captured.out.splitlines())}
    assert lines["path"] == str(path)
    assert lines["schema_version"] == "7"
    assert lines["damaged"] == "no"
    assert int(lines["size_bytes"]) > 0
    assert "saved by a newer Kamishibai Studio (schema 7)" in lines["problems"]
    assert "saved by a newer Kamishibai Studio" in captured.err and "Update Kamishibai Studio" in captured.err
    assert hashlib.sha256((path / "project.db").read_bytes()).hexdigest() == before


def test_info_json_of_a_newer_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = newer_project(tmp_path)
    assert main(["info", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    info = json.loads(captured.out)
    assert info["path"] == str(path) and info["damaged"] is False and info["schema_version"] == 7
    assert info["size_bytes"] > 0
    assert len(info["problems"]) == 1 and "newer Kamishibai Studio" in info["problems"][0]
    assert "newer Kamishibai Studio" in captured.err


def test_an_sqlite_file_of_another_program_still_prints_no_block(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "other"
    folder.mkdir()
    with sqlite3.connect(folder / "project.db") as db:
        db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('app', 'someone-else')")
    db.close()
    assert main(["info", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "not a Kamishibai project" in captured.err
