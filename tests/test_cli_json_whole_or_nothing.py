"""`--json` prints one whole JSON document or nothing (QA: `kamishibai tree --json` on a
project where another program had stored a node's instruction as bytes printed the first
30 lines of the document, then "internal error"; a script reading the output got invalid
JSON instead of an empty output and an exit status)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from studio.cli import main
from studio.cli.common import print_json


def test_a_value_that_cant_be_encoded_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(TypeError):
        print_json({"nodes": [{"id": "a", "instruction": "fine"}, {"id": "b", "instruction": b"\xff"}]})
    assert capsys.readouterr().out == ""


def test_a_value_prints_as_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    print_json([{"text": "夜の町 🐱"}])
    out = capsys.readouterr().out
    assert json.loads(out) == [{"text": "夜の町 🐱"}] and out.endswith("]\n")


def test_tree_json_of_a_project_with_a_field_of_the_wrong_type_prints_no_half_document(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "story.kamishibai"
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    with sqlite3.connect(project / "project.db") as db:  # as another program might write it
        db.execute("UPDATE nodes SET instruction = X'FFFE00' WHERE parent_id IS NOT NULL")
    capsys.readouterr()
    code = main(["tree", str(project), "--json"])
    out = capsys.readouterr().out
    assert out == "" or json.loads(out)
    if out == "":
        assert code != 0
