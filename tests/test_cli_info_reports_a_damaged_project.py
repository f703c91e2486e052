"""`kamishibai info` on a damaged project (QA: a BLOB stored in ``nodes.instruction`` made
`info` print only the error and exit 2): a user runs `info` to learn what is wrong, so it
reports what it can (the folder, its size, that it is damaged and why, under "problems")
and still exits non-zero with the error on stderr."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.core import AddTurn
from studio.storage import Project

DAMAGE = "column instruction holds a BLOB of 15 bytes, not text"


def damaged_project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town",
                              node_id="n1"))
        path = project.path
    with sqlite3.connect(path / "project.db") as db:  # as another program might write it
        db.execute("UPDATE nodes SET instruction = CAST('Character: Qiqi' AS BLOB) WHERE id = 'n1'")
    db.close()
    return path


def test_info_reports_the_damage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = damaged_project(tmp_path)
    assert main(["info", str(path)]) == 2
    captured = capsys.readouterr()
    lines = {key.strip(): value.strip() for key, _, value in
             (line.partition(":") for line in captured.out.splitlines())}
    assert lines["path"] == str(path)
    assert lines["damaged"] == "yes"
    assert int(lines["size_bytes"]) > 0
    assert DAMAGE in lines["problems"]
    assert DAMAGE in captured.err and "Restore it" in captured.err


def test_info_json_reports_the_damage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = damaged_project(tmp_path)
    assert main(["info", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    info = json.loads(captured.out)
    assert info["damaged"] is True and info["path"] == str(path) and info["size_bytes"] > 0
    assert len(info["problems"]) == 1 and DAMAGE in info["problems"][0]
    assert DAMAGE in captured.err


def test_a_sound_project_says_it_is_not_damaged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Project.create(tmp_path / "p") as project:
        path = project.path
    assert main(["info", str(path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["damaged"] is False and info["problems"] == []
    assert main(["info", str(path)]) == 0
    assert "damaged: no" in capsys.readouterr().out


def test_a_folder_that_is_no_project_still_reports_nothing(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "not a Kamishibai project" in captured.err
