"""The cast panel from the keyboard alone. Tab went from the characters straight to the
locations and back up to "Reference views…" (made after both lists); renaming was only in the
right-click menu, out of reach without a menu key (Shift+F10 now opens it); and after a rename or a removal the list
had no selected entry, so the next key (Delete, F2, an arrow) started from nowhere."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QListWidget

TIMEOUT_MS = 5_000


def _panel(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    window.cast_dock.show()
    panel = window.workspace.cast
    qtbot.waitUntil(panel.characters.isVisible, timeout=TIMEOUT_MS)
    return window, panel


def _focus(widget, qtbot) -> None:  # type: ignore[no-untyped-def]
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=TIMEOUT_MS)


def _select(widget: QListWidget, name: str) -> None:
    rows = [row for row in range(widget.count()) if widget.item(row).text() == name]
    assert rows, f"no {name!r} in the list"
    widget.setCurrentRow(rows[0])


def _current(widget: QListWidget) -> str | None:
    item = widget.currentItem()
    return item.text() if item is not None else None


def _menu_entry_by_keyboard(widget: QListWidget, qtbot, entry: str) -> None:  # type: ignore[no-untyped-def]
    """Shift+F10 on ``widget``, then Down to the menu's ``entry`` and Enter."""
    chosen: list[str] = []

    def choose() -> None:
        menu = QApplication.activePopupWidget()
        if menu is None:  # not open yet
            QTimer.singleShot(20, choose)
            return
        for _ in range(len(menu.actions())):
            qtbot.keyClick(menu, Qt.Key.Key_Down)
            active = menu.activeAction()
            if active is not None and active.text() == entry:
                chosen.append(active.text())
                qtbot.keyClick(menu, Qt.Key.Key_Return)
                return
        menu.close()

    QTimer.singleShot(0, choose)
    qtbot.keyClick(widget, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert chosen == [entry], f"the menu had no {entry!r}"
    # the test platform leaves the closed menu active (a desktop gives activation back): undo that
    widget.window().activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is widget.window(), timeout=TIMEOUT_MS)
    qtbot.waitUntil(widget.hasFocus, timeout=TIMEOUT_MS)


def _settle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.session.settle()
    qtbot.waitUntil(lambda: not any(window.session.edits_in_flight.values()), timeout=TIMEOUT_MS)


def test_tab_goes_down_the_cast_panel_as_it_reads(make_window, sample_project: Path, qtbot) -> None:
    _window, panel = _panel(make_window, sample_project, qtbot)
    _select(panel.characters, "Yuzu")
    _focus(panel.characters, qtbot)
    visited = []
    for _ in range(2):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        visited.append(QApplication.focusWidget())
    assert visited == [panel.views_button, panel.locations], [type(w).__name__ for w in visited]
    qtbot.keyClick(panel.locations, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is panel.views_button


def test_shift_f10_renames_a_character_and_the_list_keeps_it_selected(make_window, sample_project: Path, qtbot) -> None:
    window, panel = _panel(make_window, sample_project, qtbot)
    asked: list[str] = []
    panel.ask_name = lambda current: asked.append(current) or "Yuzuha"
    _select(panel.characters, "Yuzu")
    _focus(panel.characters, qtbot)
    _menu_entry_by_keyboard(panel.characters, qtbot, "Rename…")
    assert asked == ["Yuzu"]
    _settle(window, qtbot)
    assert "Yuzuha" in {m.name for m in window.session.project.tree.cast.values()}
    assert _current(panel.characters) == "Yuzuha", "the renamed character stays selected"


def test_shift_f10_renames_a_location_and_delete_then_removes_it(make_window, sample_project: Path, qtbot) -> None:
    window, panel = _panel(make_window, sample_project, qtbot)
    panel.ask_location_name = lambda current: "rose garden"
    _select(panel.locations, "garden")
    _focus(panel.locations, qtbot)
    _menu_entry_by_keyboard(panel.locations, qtbot, "Rename…")
    _settle(window, qtbot)
    assert _current(panel.locations) == "rose garden", "the renamed location stays selected"
    qtbot.keyClick(panel.locations, Qt.Key.Key_Delete)
    _settle(window, qtbot)
    assert all(loc.name != "rose garden" for loc in window.session.project.tree.locations.values())


def test_after_a_removal_the_next_entry_is_selected(make_window, sample_project: Path, qtbot) -> None:
    window, panel = _panel(make_window, sample_project, qtbot)
    names = [panel.characters.item(row).text() for row in range(panel.characters.count())]
    assert len(names) >= 2
    panel.characters.setCurrentRow(0)
    _focus(panel.characters, qtbot)
    qtbot.keyClick(panel.characters, Qt.Key.Key_Delete)  # the test window's question answers yes
    _settle(window, qtbot)
    assert names[0] not in {m.name for m in window.session.project.tree.cast.values()}
    assert _current(panel.characters) == names[1], "Delete again would remove the next one"
