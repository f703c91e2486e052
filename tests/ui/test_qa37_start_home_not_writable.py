"""Starting with a home folder this user can't write in (a locked-down account, a full
quota that was made read-only, a live system): the window opens and says the settings won't
be kept; each of the welcome page's actions is tried for real and either works or says,
naming the folder, why not and what to do (QA: the sample said only "[Errno 1] Operation not
permitted: '~/.local'")."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from studio.ui.app_paths import AppPaths
from studio.ui.settings import StudioSettings

from .conftest import services_with


@pytest.fixture
def locked_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A home folder (with the XDG folders under it, still to be made) nobody can write in."""
    import studio.ui.sample_story as sample_story

    monkeypatch.setattr(sample_story, "shipped_sample", lambda: None)  # as in an installed app
    home = tmp_path / "home"
    home.mkdir()
    for key, name in (("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                      ("XDG_CACHE_HOME", ".cache")):
        monkeypatch.setenv(key, str(home / name))
    monkeypatch.setenv("HOME", str(home))
    home.chmod(0o555)
    immutable = False
    if os.access(home, os.W_OK):  # root: the mode doesn't stop it
        immutable = subprocess.run(["chattr", "+i", str(home)], capture_output=True, check=False).returncode == 0
        if not immutable or os.access(home, os.W_OK):
            pytest.skip("no way to make a folder read-only for this user here")
    yield home
    if immutable:
        subprocess.run(["chattr", "-i", str(home)], check=False)
    home.chmod(0o755)


def _start(qtbot, registry):  # type: ignore[no-untyped-def]
    from studio.ui.app import show_at_start
    from studio.ui.main_window import MainWindow

    settings = StudioSettings(paths=AppPaths.standard())
    window = MainWindow(settings, services_with(registry))
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    show_at_start(window, None)
    qtbot.wait(50)  # the start's own turn of the event loop
    assert window.welcome is not None
    return window


def test_the_sample_says_which_folder_stopped_it_and_what_to_do(  # type: ignore[no-untyped-def]
        qtbot, registry, locked_home: Path) -> None:
    window = _start(qtbot, registry)
    assert window.last_error is not None and "settings.ini" in window.last_error.message  # said at start
    qtbot.mouseClick(window.welcome.sample_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.last_error is not None and "sample" in window.last_error.message)
    message = window.last_error.message
    assert "[Errno" not in message
    for said in (str(locked_home / ".local"), "could not be made", f"Make {locked_home} writable", "XDG_DATA_HOME",
                 "Nothing was made"):
        assert said in message
    assert window.sample_builder is None and window.welcome is not None
    assert sorted(locked_home.iterdir()) == []


def test_new_and_open_still_work_in_a_folder_that_can_be_written(  # type: ignore[no-untyped-def]
        qtbot, registry, locked_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _start(qtbot, registry)
    proposed: list[str] = []

    def save_as(target: Path):  # type: ignore[no-untyped-def]
        def answer(_parent, _title, start, _filter):  # type: ignore[no-untyped-def]
            proposed.append(start)
            return str(target), ""
        return answer

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as(Path(locked_home / "My story.kamishibai")))
    qtbot.mouseClick(window.welcome.new_button, Qt.MouseButton.LeftButton)  # the name proposed, taken as it is
    assert proposed and Path(proposed[0]).parent == locked_home
    assert window.session is None and window.last_error is not None
    assert str(locked_home) in window.last_error.message and window.last_error.hint
    mine = tmp_path / "stories" / "Mine.kamishibai"
    mine.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as(mine))
    qtbot.mouseClick(window.welcome.new_button, Qt.MouseButton.LeftButton)
    assert window.session is not None and window.session.path == mine
    assert (mine / "project.db").is_file()
    window.close_project("cancel")
    assert window.welcome is not None and [b.path for b in window.welcome.recent_buttons] == [mine]
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kwargs: str(mine))
    qtbot.mouseClick(window.welcome.open_button, Qt.MouseButton.LeftButton)
    assert window.session is not None and window.session.path == mine
    window.close_project("cancel")
    assert sorted(locked_home.iterdir()) == []
