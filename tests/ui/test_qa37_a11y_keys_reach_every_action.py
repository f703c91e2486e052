"""Every action an author needs all day has a key, shown beside it in the window's menus, and
no key means two things where the keyboard focus is: in a real window, every QAction's and
QShortcut's key sequences are collected and checked for a clash with the focus in the story
tree, in the instruction's field, on a take tile's button, on the branch player's slider and
in the cast list.

Before, Compare takes had no key and no menu entry: only the takes area's Compare button
opened it. Now Turn > Compare takes… (Ctrl+Shift+T) opens it from anywhere in the window,
and the button's tooltip names the key."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QMenu, QToolBar, QWidget

from studio.ui.inspector.compare_window import CompareWindow
from studio.ui.window_actions import COMPARE_TAKES_KEY
from tests.ui.rerolled_takes import leaf_with_two_takes

NEEDED = ("new_turn", "generate", "reroll", "fork", "compare_takes", "delete", "undo", "redo", "export", "play",
          "go_parent", "go_child", "go_prev_sibling", "go_next_sibling", "cheat_sheet")
"""What an author does from the keyboard: each has a key and a menu entry that shows it."""


def _owners(shortcut: QObject) -> list[QWidget]:
    """The widgets whose focus a shortcut's context is about (a menu's or a tool bar's entry
    of an action is no place the focus goes: the window holds those)."""
    if isinstance(shortcut, QShortcut):
        parent = shortcut.parent()
        return [parent] if isinstance(parent, QWidget) else []
    assert isinstance(shortcut, QAction)
    return [w for w in shortcut.associatedObjects() if isinstance(w, QWidget) and not isinstance(w, QMenu | QToolBar)]


def _active_here(shortcut: QAction | QShortcut, focus: QWidget) -> bool:
    """Whether ``shortcut`` answers its keys with ``focus`` focused (Qt's own rule, by context)."""
    if not shortcut.isEnabled():
        return False
    context = shortcut.shortcutContext() if isinstance(shortcut, QAction) else shortcut.context()
    if context == Qt.ShortcutContext.ApplicationShortcut:
        return True
    if context == Qt.ShortcutContext.WindowShortcut:
        if isinstance(shortcut, QAction):
            return any(w.window() is focus.window() for w in shortcut.associatedObjects() if isinstance(w, QWidget))
        return any(w.window() is focus.window() for w in _owners(shortcut))
    if context == Qt.ShortcutContext.WidgetWithChildrenShortcut:
        return any(w is focus or w.isAncestorOf(focus) for w in _owners(shortcut))
    return any(w is focus for w in _owners(shortcut))


def _clashes(window: QWidget, focus: QWidget) -> dict[str, list[str]]:
    """Each key that two shortcuts answer with ``focus`` focused, and what they are."""
    found: dict[str, list[str]] = defaultdict(list)
    shortcuts: list[QAction | QShortcut] = [*window.findChildren(QAction), *window.findChildren(QShortcut)]
    for shortcut in shortcuts:
        if not _active_here(shortcut, focus):
            continue
        if isinstance(shortcut, QAction):
            keys, label = shortcut.shortcuts(), shortcut.text()
        else:
            keys, label = [shortcut.key()], f"shortcut on {type(shortcut.parent()).__name__}"
        for key in keys:
            if not key.isEmpty():
                found[key.toString()].append(label)
    return {key: owners for key, owners in found.items() if len(owners) > 1}


def _focus(widget: QWidget, qtbot) -> QWidget:  # type: ignore[no-untyped-def]
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=5000)
    return widget


def test_no_two_shortcuts_share_a_key_where_the_focus_is(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, _session, _leaf, _other = leaf_with_two_takes(make_window, sample_project, qtbot)
    window = ws.window()
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    places = {"story tree": ws.view, "instruction field": ws.inspector.editor.motion,
              "take tile's button": ws.inspector.takes.tiles[0].use_button,
              "branch player's slider": ws.episode.player.slider, "cast list": ws.cast.characters}
    found = {}
    window.cast_dock.show()
    window.cast_dock.raise_()
    for name, widget in places.items():
        qtbot.waitUntil(widget.isVisible, timeout=5000)
        found[name] = _clashes(window, _focus(widget, qtbot))
    assert {name: clashes for name, clashes in found.items() if clashes} == {}


def test_each_needed_action_has_a_key_shown_in_a_menu(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    in_menus = {action for menu in window.menuBar().findChildren(QMenu) for action in menu.actions()}
    missing = []
    for name in NEEDED:
        action = getattr(window.actions_, name)
        keys = [key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts()]
        if not keys:
            missing.append(f"{name}: no key")
        if action not in in_menus:
            missing.append(f"{name}: in no menu, so its key is shown nowhere")
    assert missing == []


def test_compare_takes_opens_from_the_keyboard(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, _session, leaf, _other = leaf_with_two_takes(make_window, sample_project, qtbot)
    window = ws.window()
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    qtbot.waitUntil(window.actions_.compare_takes.isEnabled, timeout=10_000)  # the actions follow in a moment
    assert COMPARE_TAKES_KEY in ws.inspector.takes.compare_button.toolTip()
    tile_button = _focus(ws.inspector.takes.tiles[0].use_button, qtbot)  # from the take tiles
    qtbot.keyClick(tile_button, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: any(isinstance(w, CompareWindow) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=10_000)
    compare = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CompareWindow) and w.isVisible())
    assert len(compare.columns) == 2
    compare.close()

    tree = ws.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)  # a turn never generated: nothing to compare, and the entry says why
    qtbot.waitUntil(lambda: not window.actions_.compare_takes.isEnabled(), timeout=5000)
    assert "two takes" in window.actions_.compare_takes.toolTip()
    assert leaf != first


def test_the_check_finds_a_key_given_twice(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The clash check itself: a second R in the story area is found there, not in a text field."""
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    qtbot.waitUntil(window.actions_.reroll.isEnabled, timeout=5000)
    extra = QShortcut(QKeySequence("R"), ws.view)
    extra.setContext(Qt.ShortcutContext.WidgetShortcut)
    assert _clashes(window, _focus(ws.view, qtbot)) == {"R": [window.actions_.reroll.text(), "shortcut on TreeView"]}
    assert _clashes(window, _focus(ws.inspector.editor.motion, qtbot)) == {}
