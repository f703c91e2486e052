"""`export --out DIR`, DIR an existing folder, says that it is a folder, with or without --format.

QA: without --format (and no suffix in the folder's name) it said "Can't tell the export
format from the file name", which sent people to add a suffix to a folder's name; with
--format it said "a folder of that name exists". Both now say the folder one, with the file
to name inside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project


def _leaf(path: Path) -> str:
    with Project.open(path, read_only=True) as project:
        (leaf,) = (node.id for node in project.tree.leaves_under(project.tree.root_id))
        return leaf


@pytest.mark.parametrize(("name", "options", "suggested"), [
    ("exports", [], "episode.mp4"),
    ("exports", ["--format", "gif"], "episode.gif"),
    ("clips.mp4", [], "episode.mp4"),  # a folder with a suffix in its name
    ("my exports", ["--format", "pdf"], "episode.pdf"),  # the hint is quoted for the shell
])
def test_an_existing_folder_is_named_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                                            options: list[str], suggested: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch)
    folder = tmp_path / name
    folder.mkdir()
    capsys.readouterr()
    assert main(["export", str(project), "--leaf", _leaf(project), "--out", str(folder), *options, "-q"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"Can't write {folder}: a folder of that name exists" in err, err
    assert "Can't tell the export format" not in err
    inside = str(folder / suggested)
    assert f"hint: Name a file inside it, e.g. --out {inside if ' ' not in name else repr(inside)}." in err, err
    assert list(folder.iterdir()) == []  # nothing written into it


def test_the_file_the_hint_names_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    project = import_demo_project(tmp_path, monkeypatch, generate=True)
    folder = tmp_path / "exports"
    folder.mkdir()
    assert main(["export", str(project), "--leaf", _leaf(project), "--out", str(folder), "--format", "srt"]) == 2
    assert main(["export", str(project), "--leaf", _leaf(project), "--out", str(folder / "episode.srt")]) == 0
    assert "Qiqi" in (folder / "episode.srt").read_text(encoding="utf-8")
