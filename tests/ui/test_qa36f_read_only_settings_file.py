"""A settings file the studio can't write (read-only, or in a folder that can't be written):
its settings are used, and Settings says at once that changes won't be kept (QA: it said so
only after OK, once the user had made every change)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings


@pytest.fixture
def read_only_file(tmp_path: Path) -> Iterator[Path]:
    """A settings file this user can't write: by its mode, or (for root, whom the mode doesn't
    stop) by the immutable attribute, where the file system has one."""
    path = tmp_path / "settings.ini"
    path.write_text("[app]\nfirst_run_done=true\n[appearance]\nscheme=dark\n")
    path.chmod(0o444)
    immutable = False
    if os.access(path, os.W_OK):
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
        immutable = done.returncode == 0
        if not immutable or os.access(path, os.W_OK):
            pytest.skip("no way to make a file read-only for this user here")
    yield path
    if immutable:
        subprocess.run(["chattr", "-i", str(path)], check=False)
    path.chmod(0o644)


def test_settings_says_changes_wont_be_kept_before_any_change(  # type: ignore[no-untyped-def]
        qtbot, registry, read_only_file: Path) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    settings = StudioSettings.at(read_only_file)
    assert settings.appearance == "dark"  # what the file holds is used
    dialog = SettingsDialog(settings, registry)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.unsaved_note.isVisible()
    assert str(read_only_file) in dialog.unsaved_note.text() and "not kept" in dialog.unsaved_note.text()
    settings.add_recent(read_only_file.parent)
    assert settings.write_problem()  # as said: the write fails
    assert "recent" not in read_only_file.read_text()


def test_a_folder_that_cant_be_written_is_said_where_the_file_is_to_be_made(tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                             monkeypatch) -> None:
    folder = tmp_path / "config"
    folder.mkdir()
    real_access = os.access
    # (root writes in any folder whatever its mode: the check is what is tested here)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if Path(path) == folder
                        else real_access(path, mode, **kw))
    settings = StudioSettings.at(folder / "Kamishibai" / "settings.ini")
    assert str(folder / "Kamishibai" / "settings.ini") in settings.write_access_problem()


def test_a_writable_file_or_folder_says_nothing(qtbot, registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    fresh = StudioSettings.at(tmp_path / "new" / "settings.ini")
    assert fresh.write_access_problem() == ""
    fresh.appearance = "light"
    written = StudioSettings.at(tmp_path / "new" / "settings.ini")
    assert written.write_access_problem() == ""
    dialog = SettingsDialog(written, registry)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.unsaved_note.isVisible()
