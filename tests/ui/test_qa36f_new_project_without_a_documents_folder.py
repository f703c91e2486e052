"""New project proposes a name in the Documents folder; where that folder is missing or
can't be written at start, it proposes one in the home folder instead (QA: the file dialog,
sent to a folder that isn't there, opened in the folder the studio was started from)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.ui.app_paths import AppPaths


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def _proposed(make_window, monkeypatch: pytest.MonkeyPatch) -> Path:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QFileDialog

    seen: list[str] = []

    def answer(_parent, _title, start, _filter):  # type: ignore[no-untyped-def]
        seen.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", answer)
    window = make_window()
    window.welcome.new_button.click()
    assert seen, "New project asked nothing"
    return Path(seen[0])


def test_a_missing_documents_folder_proposes_the_home_folder(  # type: ignore[no-untyped-def]
        home: Path, make_window, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not (home / "Documents").exists()
    assert _proposed(make_window, monkeypatch) == home / "My story.kamishibai"
    assert not (home / "Documents").exists()  # nothing made behind the user's back


def test_an_existing_documents_folder_is_kept(home: Path) -> None:
    (home / "Documents").mkdir()
    assert AppPaths.standard().documents_dir == home / "Documents"


def test_a_read_only_documents_folder_is_passed_over(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents = home / "Documents"
    documents.mkdir()
    real_access = os.access
    # (the tests may run as root, whom a folder's mode doesn't stop: the check is asked instead)
    monkeypatch.setattr("studio.ui.app_paths.os.access",
                        lambda path, mode: False if Path(path) == documents else real_access(path, mode))
    assert AppPaths.standard().documents_dir == home


def test_a_documents_name_that_is_a_file_is_passed_over(home: Path) -> None:
    (home / "Documents").write_text("not a folder")
    assert AppPaths.standard().documents_dir == home
