"""Alt+1, Alt+2 and Alt+3 go to the inspector, the queue and the cast: each dock is shown, in
front of its tab group (the queue and the cast share one), and takes the keyboard."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication


def _focus_in(dock) -> bool:  # type: ignore[no-untyped-def]
    focused = QApplication.focusWidget()
    return focused is not None and dock.isAncestorOf(focused)


def test_each_dock_is_reached_from_the_keyboard(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.activateWindow()
    docks = {"Alt+1": window.inspector_dock, "Alt+2": window.queue_dock, "Alt+3": window.cast_dock}
    assert [action.shortcut().toString() for action in window.dock_keys] == list(docks)
    window.cast_dock.hide()
    window.queue_dock.raise_()
    for key, dock in (("Alt+3", window.cast_dock), ("Alt+2", window.queue_dock), ("Alt+1", window.inspector_dock),
                      ("Alt+3", window.cast_dock)):
        action = next(a for a in window.dock_keys if a.shortcut().toString() == key)
        action.trigger()
        qtbot.waitUntil(lambda dock=dock: dock.isVisible() and _focus_in(dock), timeout=5000)
        assert not dock.visibleRegion().isEmpty(), f"{key}: {dock.windowTitle()} is in front"
    inside = QApplication.focusWidget()
    next(a for a in window.dock_keys if a.shortcut().toString() == "Alt+3").trigger()
    assert QApplication.focusWidget() is inside, "already there: the place in the dock is kept"


def test_the_keys_are_in_the_view_menu(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    listed = [action.text() for action in window.menus["View"].actions()]
    assert {"Go to &Inspector", "Go to &Queue", "Go to &Cast && world"} <= set(listed), listed
