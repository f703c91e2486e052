"""A settings file the studio can't write, met at start: the window says so as it opens (in
the status bar and a message that does not block it), naming the file and what to do, and
the studio still starts and opens the last project (QA: it was said only in the Settings
dialog, so the user changed settings that were then not kept)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from studio.ui.app_paths import AppPaths
from studio.ui.settings import StudioSettings

from .conftest import services_with


def _make_unwritable(path: Path) -> bool:
    """Make ``path`` unwritable for this user: by its mode, or (root, whom modes don't stop)
    by the immutable attribute. True: it is now; False: no way here."""
    path.chmod(0o555 if path.is_dir() else 0o444)
    if not os.access(path, os.W_OK):
        return True
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    return done.returncode == 0 and not os.access(path, os.W_OK)


def _make_writable(path: Path) -> None:
    subprocess.run(["chattr", "-i", str(path)], capture_output=True, check=False)
    path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.fixture
def unwritable() -> Iterator[list[Path]]:
    """Paths to make unwritable with :func:`_make_unwritable`; made writable again after."""
    made: list[Path] = []
    yield made
    for path in reversed(made):
        _make_writable(path)


def _start(qtbot, registry, settings: StudioSettings, path: Path | None = None):  # type: ignore[no-untyped-def]
    from studio.ui.app import show_at_start
    from studio.ui.main_window import MainWindow

    window = MainWindow(settings, services_with(registry))
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    show_at_start(window, path)
    return window


def _open_notices(window) -> list[QMessageBox]:  # type: ignore[no-untyped-def]
    return [box for box in window.findChildren(QMessageBox) if box.isVisible()]


def test_a_read_only_settings_file_is_said_as_the_window_opens_and_the_last_project_opens(  # type: ignore[no-untyped-def]
        qtbot, registry, tmp_path: Path, sample_project: Path, unwritable: list[Path]) -> None:
    path = tmp_path / "settings.ini"
    writer = StudioSettings.at(path)
    writer.mark_first_run_done()
    writer.engine = "sketch"
    writer.add_recent(sample_project)
    if not _make_unwritable(path):
        pytest.skip("no way to make a file read-only for this user here")
    unwritable.append(path)
    settings = StudioSettings.at(path)
    window = _start(qtbot, registry, settings)
    error = window.last_error
    assert error is not None, "nothing was said at start"
    for said in (str(path), "read-only", "not kept", "Make that file writable"):
        assert said in error.message
    assert "works as usual" in error.hint
    assert str(path) in window.status_label.text()
    notices = _open_notices(window)
    assert len(notices) == 1 and not notices[0].isModal()  # the window stays usable meanwhile
    assert str(path) in notices[0].text()
    qtbot.waitUntil(lambda: window.session is not None, timeout=10_000)  # the last project still opens
    assert window.session is not None and window.session.path == sample_project
    window.close_project("cancel")


def test_a_settings_folder_that_cant_be_made_is_said_at_start(  # type: ignore[no-untyped-def]
        qtbot, registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unwritable: list[Path]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # a home this user can't write in
    if not _make_unwritable(home):
        pytest.skip("no way to make a folder read-only for this user here")
    unwritable.append(home)
    paths = AppPaths.standard()
    settings = StudioSettings(paths=paths)
    window = _start(qtbot, registry, settings)
    error = window.last_error
    assert error is not None, "nothing was said at start"
    for said in (str(paths.settings_file), f"its folder {home} can't be written in", "not kept",
                 "XDG_CONFIG_HOME"):
        assert said in error.message
    qtbot.waitUntil(lambda: window.welcome is not None and window.centralWidget() is window.welcome)
    assert not paths.settings_file.exists()


def test_a_settings_file_that_is_a_folder_does_not_promise_the_rest_is_kept(  # type: ignore[no-untyped-def]
        qtbot, registry, tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    path.mkdir()
    window = _start(qtbot, registry, StudioSettings.at(path))
    error = window.last_error
    assert error is not None and "it is a folder" in error.message
    assert "other settings are kept" not in error.hint and "hold until it closes" in error.hint


def test_writable_settings_say_nothing_at_start(qtbot, registry, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = _start(qtbot, registry, StudioSettings.at(tmp_path / "fresh" / "settings.ini"))
    assert window.last_error is None and _open_notices(window) == []
    qtbot.waitUntil(lambda: window.welcome is not None)
