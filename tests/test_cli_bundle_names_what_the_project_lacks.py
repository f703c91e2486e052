"""`bundle` says what the project lacks, as `unbundle` and `info` do: a project whose clip
file was deleted (or is a link outside the project) was bundled without it, exit 0 and not a
word, and the missing clip surfaced only on the other machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project


def test_bundle_names_a_missing_clip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    assert main(["fill", str(path), "--run"]) == 0
    with Project.open(path, read_only=True) as project:
        clip = next(take.clip_path for take in project.tree.takes.values() if take.clip_path)
    (path / clip).unlink()
    capsys.readouterr()

    assert main(["bundle", str(path), str(tmp_path / "story.zip")]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "story.zip").is_file()
    assert "note: 1 clip file(s) are missing" in out and "the bundle holds the project as it is" in out


def test_bundle_of_a_whole_project_says_nothing_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    assert main(["fill", str(path), "--run"]) == 0
    capsys.readouterr()
    assert main(["bundle", str(path), str(tmp_path / "story.zip")]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "story.zip")
