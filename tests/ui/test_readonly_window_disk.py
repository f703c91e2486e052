"""A project on a read-only disk opens in the window read-only instead of being refused: the
story, its takes, the player, compare and export (to a writable folder) work; every change
is off or refused with the reason; a lasting line says why, and Save a copy… makes an
editable copy and opens it.

Before, the window refused the project ("Can't open the project for writing: the project
folder … is read-only") and showed nothing of it.

The machine runs the tests as root, for whom file permissions don't stop writes; a read-only
disk is simulated where the studio asks about it: ``folder_writable`` (``access(W_OK)``),
``statvfs``'s read-only flag, and the creation of the lock file (what a read-only disk
refuses first). Everything else is real: the project, its SQLite file, the clips, the export.
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from studio.storage import errors as storage_errors
from studio.storage import lock as lock_module
from studio.storage.errors import describe_os_error
from tests.ui.conftest import generate_first_branch
from tests.ui.rerolled_takes import done_with_clips, reroll_until

CHANGING = ("new_turn", "generate", "reroll", "reroll_branch", "fill", "fork", "move_up", "move_down", "bookmark",
            "delete", "undo", "redo")

DISK_LINE = "Read-only: sample.kamishibai is on a read-only disk"


def project_with_takes(make_window: Any, sample_project: Path, qtbot: Any) -> tuple[Any, str]:
    """The sample with its first branch generated and its last turn re-rolled to two takes,
    closed again; (the window, that last turn's id)."""
    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    reroll_until(window.workspace, window.session, qtbot, leaf, 2)
    assert window.close_project("cancel")
    return window, leaf


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stored(project: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """Rows read from the project's SQLite file itself (not the window's tree)."""
    database = sqlite3.connect(f"file:{project / 'project.db'}?mode=ro", uri=True)
    try:
        return database.execute(sql, args).fetchall()
    finally:
        database.close()


def read_only_disk(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Make ``folder`` look as a read-only disk looks: not writable, mounted read-only, and
    no lock file can be made in it."""
    root = folder.resolve()

    def inside(path: object) -> bool:
        try:
            return Path(os.fspath(path)).resolve().is_relative_to(root)  # type: ignore[arg-type]
        except (OSError, TypeError):
            return False

    writable, statvfs = storage_errors.folder_writable, os.statvfs

    class ReadOnlyMount:
        def __init__(self, real: os.statvfs_result) -> None:
            self._real = real
            self.f_flag = real.f_flag | os.ST_RDONLY

        def __getattr__(self, name: str) -> Any:
            return getattr(self._real, name)

    def lock_file(owner: Path, path: Path) -> int:
        if inside(owner):
            raise describe_os_error(OSError(errno.EROFS, "Read-only file system"), owner,
                                    "open the project for writing")
        return real_open(owner, path)

    real_open = lock_module._open_lock_file
    monkeypatch.setattr(storage_errors, "folder_writable", lambda f: False if inside(f) else writable(f))
    monkeypatch.setattr(os, "statvfs", lambda p: ReadOnlyMount(statvfs(p)) if inside(p) else statvfs(p))
    monkeypatch.setattr(lock_module, "_open_lock_file", lock_file)


def test_a_project_on_a_read_only_disk_opens_to_look_play_compare_and_export(
        make_window, sample_project: Path, tmp_path: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from studio.export import ExportOptions
    from studio.storage.media import probe

    window, leaf = project_with_takes(make_window, sample_project, qtbot)
    db_before = file_digest(sample_project / "project.db")
    chosen_before = stored(sample_project, "SELECT selected_take_id FROM nodes WHERE id = ?", leaf)
    media_before = sorted(p.relative_to(sample_project) for p in sample_project.rglob("*") if p.is_file()
                          and p.parent != sample_project)
    read_only_disk(monkeypatch, sample_project)

    assert window.open_project(sample_project), window.last_error
    ws, session = window.workspace, window.session
    assert session.read_only is not None and session.project.read_only
    line = ws.read_only_bar.label.text()
    assert "sample.kamishibai is on a read-only disk" in line, line
    assert "Save a copy" in line
    assert ws.read_only_bar.isVisible()
    assert [b.defaultAction() for b in ws.read_only_bar.buttons] == [window.actions_.save_copy]  # nothing to reopen
    assert "(read-only)" in window.windowTitle()
    assert window.actions_.save_copy.isEnabled() and not window.actions_.reopen_for_editing.isEnabled()

    # the story is all there: every turn on the canvas, the takes in the inspector
    tree = session.project.tree
    assert set(ws.scene.cells) == set(tree.nodes)
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)

    # every action that would change the project is off and says why
    for name in CHANGING:
        action = getattr(window.actions_, name)
        assert not action.isEnabled(), name
        assert action.toolTip().startswith(DISK_LINE), (name, action.toolTip())
    assert not any(a.isEnabled() for a in window.actions_.take_keys.actions())
    # ... and its key in the tree says so in the status bar
    messages: list[str] = []
    ws.message.connect(messages.append)
    ws.view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    for key in (Qt.Key.Key_R, Qt.Key.Key_F, Qt.Key.Key_Delete, Qt.Key.Key_2):
        messages.clear()
        qtbot.keyClick(ws.view, key)
        assert messages and messages[-1].startswith(DISK_LINE), (key, messages)

    # what the inspector or the cast would change is refused with the reason, and nothing is written
    other = next(t for t in done_with_clips(session, leaf) if t.id != tree.node(leaf).selected_take_id)
    errors: list[Any] = []
    ws.error.connect(errors.append)
    ws.choose_take(leaf, other.id)
    assert errors and errors[-1].message.startswith("Can't choose another take: sample.kamishibai is on a read-only"), \
        errors
    assert "Save a copy" in errors[-1].hint
    from studio.core.commands import SetNotes

    ws.apply(SetNotes(leaf, "a note"))
    assert errors[-1].message.startswith("Can't save the change"), errors[-1]
    told = len(errors)
    messages.clear()
    ws.apply(SetNotes(leaf, "a note, typed on"))  # the same refusal again: said in the status bar, no new box
    assert len(errors) == told and messages[-1].startswith("⚠ Can't save the change"), messages
    ws.undo()
    assert errors[-1].message.startswith("Can't undo"), errors[-1]
    ws.generate_text(leaf, "Character: Qiqi; Motion: wave")  # the editor's Generate button
    assert errors[-1].message.startswith("Can't generate"), errors[-1]
    ws.save_text("Character: Qiqi; Motion: wave")  # its Save text button
    assert errors[-1].message.startswith("Can't save the instruction"), errors[-1]
    ws.fork()
    assert errors[-1].message.startswith("Can't fork the turn"), errors[-1]
    picture = tmp_path / "face.png"
    picture.write_bytes(b"not read: refused first")
    with pytest.raises(Exception, match="Can't import face.png"):
        ws._import_image(picture, "characters")

    # compare the two takes, play the branch
    window_ = ws.compare_takes()
    assert window_ is not None
    window_.close()
    assert window.actions_.play.isEnabled()
    window.actions_.play.trigger()
    qtbot.waitUntil(lambda: ws.episode.player.playing, timeout=5000)
    ws.episode.player.pause()

    # export to a writable folder: a real mp4, read back
    out = tmp_path / "exports" / "episode.mp4"
    queued: list[str] = []
    window.last_error = None  # the refusals above
    ws.queue_export(out, ExportOptions(crossfade=0.0), "mp4", then=queued.append)
    qtbot.waitUntil(lambda: bool(queued) or window.last_error is not None, timeout=60_000)
    assert queued, window.last_error
    qtbot.waitUntil(lambda: session.service.job(queued[0]).status.value in ("done", "failed"), timeout=120_000)
    assert session.service.job(queued[0]).status.value == "done", session.service.job(queued[0]).error
    assert probe(out).frames > 0

    session.settle()
    window.close_project("cancel")
    assert file_digest(sample_project / "project.db") == db_before
    assert stored(sample_project, "SELECT selected_take_id FROM nodes WHERE id = ?", leaf) == chosen_before
    assert sorted(p.relative_to(sample_project) for p in sample_project.rglob("*") if p.is_file()
                  and p.parent != sample_project) == media_before


def test_save_a_copy_opens_an_editable_copy_and_leaves_the_original(
        make_window, sample_project: Path, tmp_path: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    window, leaf = project_with_takes(make_window, sample_project, qtbot)
    db_before = file_digest(sample_project / "project.db")
    read_only_disk(monkeypatch, sample_project)
    assert window.open_project(sample_project), window.last_error
    assert window.session.read_only is not None

    # a copy inside the read-only project is refused, saying why; the project stays open
    assert not window.save_copy_to(sample_project / "inner")
    assert "inside" in window.last_error.message, window.last_error
    assert window.session.read_only is not None

    copy = tmp_path / "mine" / "my copy"
    folder = tmp_path / "mine" / "my copy.kamishibai"
    assert window.save_copy_to(copy), window.last_error
    assert not window.actions_.save_copy.isEnabled()  # one copy at a time
    qtbot.waitUntil(lambda: window.session is not None and window.session.path == folder, timeout=60_000)
    session, ws = window.session, window.workspace
    assert session.path == folder and session.read_only is None and not session.project.read_only
    assert ws.read_only_bar is None
    assert "(read-only)" not in window.windowTitle()
    assert window.actions_.save_copy.isEnabled()  # (any open project can be copied)
    assert f"Saved a copy at {folder}" in window.status_text()
    # every turn and take came along, clips included
    assert len(session.project.tree.takes) == len(stored(sample_project, "SELECT id FROM takes"))
    assert all(session.project.resolve(t.clip_path).is_file() for t in done_with_clips(session, leaf))

    # the copy can be changed: a bookmark, stored in the copy's file, none in the original
    ws.select(leaf, center=False)
    qtbot.waitUntil(lambda: window.actions_.bookmark.isEnabled(), timeout=5000)
    window.actions_.bookmark.trigger()
    qtbot.waitUntil(lambda: stored(folder, "SELECT bookmarked FROM nodes WHERE id = ?", leaf) == [(1,)],
                    timeout=10_000)
    assert stored(sample_project, "SELECT bookmarked FROM nodes WHERE id = ?", leaf) == [(0,)]
    assert file_digest(sample_project / "project.db") == db_before


def test_a_lock_file_the_disk_refuses_still_opens_read_only(
        make_window, sample_project: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Only the lock file's creation fails (a folder whose permissions ``access`` misreads, a
    network share): the window falls back to reading, as for a read-only disk."""
    window = make_window()
    real_open = lock_module._open_lock_file

    def refused(owner: Path, path: Path) -> int:
        if owner.resolve() == sample_project.resolve():
            raise describe_os_error(OSError(errno.EACCES, "Permission denied"), owner, "open the project for writing")
        return real_open(owner, path)

    monkeypatch.setattr(lock_module, "_open_lock_file", refused)
    assert window.open_project(sample_project), window.last_error
    reason = window.session.read_only
    assert reason is not None and not reason.locked
    assert "sample.kamishibai is in a folder this user can't write to" in reason.line()
    assert not window.actions_.new_turn.isEnabled()


def test_closing_while_a_copy_is_saved_waits_for_a_whole_copy(
        make_window, sample_project: Path, tmp_path: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import time

    from studio.storage import Project
    from studio.ui import session as session_module

    real_copy = session_module.save_copy

    def slow_copy(project: Any, dest: Any) -> Any:  # a slow disk: the close comes while it reads
        time.sleep(1.0)
        return real_copy(project, dest)

    monkeypatch.setattr(session_module, "save_copy", slow_copy)
    read_only_disk(monkeypatch, sample_project)
    window = make_window(sample_project)
    assert window.session.read_only is not None
    folder = tmp_path / "copy.kamishibai"
    assert window.save_copy_to(folder), window.last_error
    assert not window.close_project("cancel")  # its project is being read: not now, and said why
    assert window.status_text().startswith("Still saving a copy of"), window.status_text()
    assert not window.save_copy_to(tmp_path / "second")  # one at a time

    window.close()  # waits for the copy; the copy is left closed, whole, free to open for writing
    assert window.session is None
    with Project.open(folder) as copy:
        assert len(copy.tree.nodes) == len(stored(sample_project, "SELECT id FROM nodes"))
