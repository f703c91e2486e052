"""While the window finishes the queued jobs before closing, no new generation starts.

R was accepted then: its "Re-rolling…" replaced the notice that the window was waiting, and
the window went on waiting for the new job too."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def _finishing_window(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """The sample's window closing with "Finish them" while a re-roll waits (the service paused)."""
    window = make_window(sample_project)
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    window.workspace.select(first, center=False)
    window.session.service.pause()
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: len(window.session.active_jobs()) == 1, timeout=10_000)
    window.ask_close_policy = lambda count: "finish"  # type: ignore[method-assign]
    window.close()
    assert window.isVisible() and window._finishing
    return window, first


def test_generating_actions_are_off_and_say_why(make_window, sample_project: Path, qtbot) -> None:
    window, _first = _finishing_window(make_window, sample_project, qtbot)
    a = window.actions_
    for action in (a.generate, a.reroll, a.reroll_branch, a.fill):
        assert not action.isEnabled(), action.text()
        assert "finishing the queued jobs" in action.toolTip()
    assert a.undo.isEnabled() or a.fork.isEnabled()  # the rest of the window still works
    ws = window.workspace
    ws.view.setFocus()
    QTest.keyClick(ws.view, Qt.Key.Key_R)
    qtbot.wait(300)
    assert len(window.session.active_jobs()) == 1, "no job was queued"
    assert "Finishing the queued jobs before closing" in window.status_text()
    assert "finishing the queued jobs" in window.status_text()  # and why R did nothing


def test_a_generation_asked_for_anyway_is_refused_and_the_notice_stays(make_window, sample_project: Path,
                                                                       qtbot) -> None:
    window, first = _finishing_window(make_window, sample_project, qtbot)
    ws = window.workspace
    ws.reroll_many(3)  # the takes area's "Re-roll ×3" button
    ws.generate_text(first, ws.inspector.editor.text())  # the inspector's Generate button
    qtbot.wait(300)
    assert len(window.session.active_jobs()) == 1
    assert "No new generation now" in window.status_text()
    assert "Finishing the queued jobs before closing" in window.status_text()


def test_the_window_still_closes_by_itself_once_the_queue_is_done(make_window, sample_project: Path,
                                                                  qtbot) -> None:
    window, _first = _finishing_window(make_window, sample_project, qtbot)
    QTest.keyClick(window.workspace.view, Qt.Key.Key_R)
    window.session.service.resume()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=60_000)
    from studio.storage import Project

    with Project.open(sample_project) as project:
        tree = project.tree
        assert len(tree.takes_of(tree.child_ids(tree.root_id)[0])) == 1  # the one queued before, no more


def test_a_status_message_while_finishing_keeps_the_notice(make_window, sample_project: Path, qtbot) -> None:
    window, _first = _finishing_window(make_window, sample_project, qtbot)
    window.show_message("Take ready.")
    assert window.status_text().startswith("Take ready.")
    assert "Finishing the queued jobs before closing" in window.status_text()
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    window.close()
    assert not window.isVisible()
