"""A project another running studio holds (its writer lock) opens in the window read-only,
saying who holds it, instead of being refused; once that studio closes it, the line says so
and Reopen for editing opens it for writing.

Before, the window refused it ("… is being changed by …") and showed nothing of it.

The other studio is a real second process holding the project's real writer lock."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt

HOLD = """
import sys
from studio.storage import Project
from studio.storage.lock import set_process_label
set_process_label(sys.argv[2])
with Project.open(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


def _bookmarked(project: Path, node_id: str) -> list[tuple[int]]:
    database = sqlite3.connect(f"file:{project / 'project.db'}?mode=ro", uri=True)
    try:
        return database.execute("SELECT bookmarked FROM nodes WHERE id = ?", (node_id,)).fetchall()
    finally:
        database.close()


def test_a_project_held_by_another_studio_opens_read_only_then_for_editing_once_free(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(sample_project), "the Kamishibai Studio window"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        db_before = hashlib.sha256((sample_project / "project.db").read_bytes()).hexdigest()
        window = make_window()
        assert window.open_project(sample_project), window.last_error
        ws, session = window.workspace, window.session
        reason = session.read_only
        assert reason is not None and reason.locked
        line = ws.read_only_bar.label.text()
        assert f"sample.kamishibai is open in another Kamishibai Studio (pid {holder.pid})." in line, line
        assert "Reopen for editing" in line and "Save a copy" in line, line
        assert "--wait" not in line and "Reading commands" not in line, line  # no command-line advice in the window
        assert [b.defaultAction() for b in ws.read_only_bar.buttons] == [window.actions_.save_copy,
                                                                         window.actions_.reopen_for_editing]
        assert window.actions_.reopen_for_editing.isEnabled()
        tree = session.project.tree
        assert set(ws.scene.cells) == set(tree.nodes)  # the story is shown

        leaf = tree.leaves_under(tree.root_id)[0].id
        ws.select(leaf, center=False)
        assert not window.actions_.bookmark.isEnabled()
        messages: list[str] = []
        ws.message.connect(messages.append)
        ws.view.setFocus(Qt.FocusReason.OtherFocusReason)
        qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
        qtbot.keyClick(ws.view, Qt.Key.Key_B)
        assert messages and messages[-1].startswith(f"Read-only: sample.kamishibai is open in another Kamishibai "
                                                    f"Studio (pid {holder.pid})"), messages

        # still held: reopening says so, and the project stays open read-only
        assert not window.reopen_for_editing()
        assert "is being changed by" in window.last_error.message, window.last_error
        assert window.session is session and session.read_only is not None
        assert ws.read_only_bar.label.text() == line
    finally:
        holder.communicate("", timeout=60)
    assert hashlib.sha256((sample_project / "project.db").read_bytes()).hexdigest() == db_before

    # the other studio closed it: the line says it can be reopened (the window looks every 2 s)
    qtbot.waitUntil(lambda: "no longer open elsewhere" in ws.read_only_bar.label.text(), timeout=10_000)
    assert "Reopen for editing" in ws.read_only_bar.label.text()
    assert window.reopen_for_editing(), window.last_error
    session = window.session
    assert session.read_only is None and not session.project.read_only
    assert window.workspace.read_only_bar is None
    assert not window.actions_.reopen_for_editing.isEnabled() and window.actions_.save_copy.isEnabled()
    assert window.status_text().startswith("Reopened "), window.status_text()

    window.workspace.select(leaf, center=False)
    qtbot.waitUntil(window.actions_.bookmark.isEnabled, timeout=5000)
    window.actions_.bookmark.trigger()
    qtbot.waitUntil(lambda: _bookmarked(sample_project, leaf) == [(1,)], timeout=10_000)


def test_a_project_a_command_is_changing_says_which_command(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(sample_project), "kamishibai run-queue"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        window = make_window()
        assert window.open_project(sample_project), window.last_error
        line = window.workspace.read_only_bar.label.text()
        assert line.startswith(f"Read-only: sample.kamishibai is being changed by kamishibai run-queue "
                               f"(pid {holder.pid}). Wait for it to finish, then use File › Reopen for editing"), line
        assert window.actions_.reopen_for_editing.isEnabled()
    finally:
        holder.communicate("", timeout=60)
