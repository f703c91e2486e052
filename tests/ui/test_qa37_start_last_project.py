"""The start's "open the last project" with broken surroundings: a first start on a path, a
last project that is gone, held by another running studio, read-only, on a full disk,
damaged or another program's. The window always opens; what can't be opened is said, naming
it, and nothing of it is changed (QA: a start after ``make run`` showed the welcome page, and
a last project that was gone was passed over without a word)."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.ui.settings import StudioSettings

from .conftest import services_with


def _project(path: Path) -> Path:
    from studio.composition import create_sample_project

    project = create_sample_project(path)
    folder = project.path
    project.close()
    return folder


def _start(qtbot, registry, settings: StudioSettings, path: Path | None = None):  # type: ignore[no-untyped-def]
    from studio.ui.app import show_at_start
    from studio.ui.main_window import MainWindow

    window = MainWindow(settings, services_with(registry))
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    show_at_start(window, path)
    qtbot.wait(50)  # the start opens on the next turn of the event loop
    qtbot.waitUntil(lambda: window.session is not None or window.welcome is not None)
    return window


@pytest.fixture
def fresh(tmp_path: Path) -> StudioSettings:
    """Settings of a first start: nothing saved yet."""
    return StudioSettings.at(tmp_path / "config" / "settings.ini")


def test_a_first_start_on_a_path_opens_the_last_project_next_time(  # type: ignore[no-untyped-def]
        qtbot, registry, fresh: StudioSettings, sample_project: Path) -> None:
    window = _start(qtbot, registry, fresh, sample_project)  # `make run` on a new account
    assert window.session is not None and window.session.path == sample_project
    window.close_project("cancel")
    window.close()
    again = _start(qtbot, registry, StudioSettings.at(Path(fresh.q.fileName())))  # then `kamishibai`
    assert again.session is not None and again.session.path == sample_project
    again.close_project("cancel")


def test_a_plain_first_start_still_shows_the_welcome_page(  # type: ignore[no-untyped-def]
        qtbot, registry, fresh: StudioSettings, sample_project: Path) -> None:
    fresh.add_recent(sample_project)  # (an earlier version's list, say)
    window = _start(qtbot, registry, fresh)
    assert window.session is None and window.centralWidget() is window.welcome
    assert fresh.first_run_done


def test_a_last_project_that_is_gone_is_said_and_the_one_before_opens(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, tmp_path: Path) -> None:
    older = _project(tmp_path / "older.kamishibai")
    last = _project(tmp_path / "drive" / "last.kamishibai")
    settings.add_recent(older)
    settings.add_recent(last)
    shutil.rmtree(last.parent)  # a drive not connected now
    window = _start(qtbot, registry, settings)
    assert window.session is not None and window.session.path == older
    status = window.status_label.text()
    assert status.startswith("Opened ") and "Your last project, last.kamishibai, isn't at" in status
    assert str(last.parent) in status and "Open project" in status
    assert window.last_error is None  # no message box: the studio goes on
    assert settings.recent_projects[1] == str(last)  # kept, for when the drive is back
    window.close_project("cancel")


def test_the_only_project_gone_leaves_the_welcome_page_and_says_why(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, tmp_path: Path) -> None:
    last = _project(tmp_path / "last.kamishibai")
    settings.add_recent(last)
    shutil.rmtree(last)
    window = _start(qtbot, registry, settings)
    assert window.session is None and window.centralWidget() is window.welcome
    assert window.status_label.text().startswith("Your last project, last.kamishibai, isn't at")


@pytest.mark.parametrize("kind", ["a file", "a folder of other things"])
def test_a_last_project_that_is_no_project_now_is_said_as_such(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, tmp_path: Path, kind: str) -> None:
    last = tmp_path / "story.kamishibai"
    if kind == "a file":
        last.write_text("someone else's file, now under the project's name")
    else:
        last.mkdir()
        (last / "notes.txt").write_text("mine")
    settings.q.setValue("projects/recent", [str(last)])  # (the list names it: a project once)
    before = sorted(p.name for p in tmp_path.iterdir())
    window = _start(qtbot, registry, settings)
    assert window.session is None and window.centralWidget() is window.welcome
    status = window.status_label.text()
    assert status.startswith(f"Your last project, story.kamishibai in {tmp_path}, is not a Kamishibai project now")
    assert "moved, deleted" not in status
    assert last.exists() and sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.fixture
def held_elsewhere(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A project whose writer lock another running process holds (as another studio does)."""
    folder = _project(tmp_path / "shared.kamishibai")
    code = ("import sys, time; from pathlib import Path; from studio.storage.lock import WriterLock; "
            "lock = WriterLock.acquire(Path(sys.argv[1])); print('held', flush=True); time.sleep(120)")
    child = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        yield folder, child
    finally:
        child.kill()
        child.wait()


def test_a_last_project_open_in_another_studio_opens_read_only_then_for_editing_once_free(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, held_elsewhere: tuple[Path, subprocess.Popen[str]]) -> None:
    folder, other = held_elsewhere
    settings.add_recent(folder)
    before = (folder / "project.db").read_bytes()
    window = _start(qtbot, registry, settings)
    # opened read-only (it was refused), saying who holds it, and nothing written
    assert window.session is not None and window.session.path == folder
    reason = window.session.read_only
    assert reason is not None and reason.locked and f"pid {other.pid}" in reason.why, reason
    assert f"pid {other.pid}" in window.workspace.read_only_bar.label.text()
    assert (folder / "project.db").read_bytes() == before
    other.kill()
    other.wait()
    qtbot.waitUntil(lambda: window.actions_.reopen_for_editing.isEnabled(), timeout=10_000)
    assert window.reopen_for_editing(), window.last_error  # once free, it opens for editing
    assert window.session is not None and window.session.path == folder and window.session.read_only is None
    window.close_project("cancel")


def test_a_last_project_on_a_full_disk_is_said_and_kept(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import studio.storage.lock as lock_module
    from studio.storage.errors import describe_os_error

    folder = _project(tmp_path / "full.kamishibai")
    (folder / lock_module.LOCK_NAME).unlink(missing_ok=True)  # made again at open: no room for it
    settings.add_recent(folder)
    before = sorted(p.name for p in folder.iterdir())
    made: list[Path] = []

    def no_room(project: Path, path: Path) -> int:
        """As the lock module's own opener does when the disk has no room for the file."""
        made.append(path)
        raise describe_os_error(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path)), project,
                                "open the project for writing")

    monkeypatch.setattr(lock_module, "_open_lock_file", no_room)
    window = _start(qtbot, registry, settings)
    monkeypatch.undo()
    assert made == [folder / lock_module.LOCK_NAME]  # it was tried
    assert window.session is None and window.welcome is not None
    error = window.last_error
    assert error is not None and "full" in error.message and str(folder) in error.message
    assert sorted(p.name for p in folder.iterdir()) == before


def _read_only(folder: Path) -> bool:
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o555 if path.is_dir() else 0o444)
    if not os.access(folder, os.W_OK):
        return True
    for path in (*folder.rglob("*"), folder):
        subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    return not os.access(folder, os.W_OK)


def test_a_read_only_last_project_opens_read_only_and_is_left_as_it_is(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, tmp_path: Path) -> None:
    folder = _project(tmp_path / "ro.kamishibai")
    settings.add_recent(folder)
    before = (folder / "project.db").read_bytes()
    try:
        if not _read_only(folder):
            pytest.skip("no way to make a folder read-only for this user here")
        window = _start(qtbot, registry, settings)
        # opened read-only (it was refused), saying why, and nothing written
        assert window.session is not None and window.session.path == folder
        assert window.session.read_only is not None and window.session.project.read_only
        assert folder.name in window.workspace.read_only_bar.label.text()
        window.close_project("cancel")
        assert (folder / "project.db").read_bytes() == before
    finally:
        subprocess.run(["chattr", "-R", "-i", str(folder)], capture_output=True, check=False)
        for path in (folder, *folder.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.mark.parametrize("kind", ["garbage", "empty", "another program's"])
def test_a_damaged_or_foreign_last_project_is_said_and_left_as_it_is(  # type: ignore[no-untyped-def]
        qtbot, registry, settings: StudioSettings, tmp_path: Path, kind: str) -> None:
    folder = _project(tmp_path / "odd.kamishibai")
    database = folder / "project.db"
    if kind == "garbage":
        database.write_bytes(b"not a database " * 400)
    elif kind == "empty":
        database.write_bytes(b"")
    else:
        database.unlink()
        other = sqlite3.connect(database)
        other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        other.commit()
        other.close()
    before = database.read_bytes()
    settings.add_recent(folder)
    window = _start(qtbot, registry, settings)
    assert window.session is None and window.welcome is not None
    error = window.last_error
    assert error is not None and str(database) in error.message and error.hint
    assert database.read_bytes() == before
