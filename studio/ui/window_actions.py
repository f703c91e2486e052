"""Every command of the window as a QAction with its shortcut, grouped into menus.

Single-key shortcuts (arrows, R, F, Delete, Space, Enter, B, Z, 1 to 9) are bound to the story area
(canvas and episode strip) only, so typing in the inspector never triggers them; the
menus still show them, and the F1 cheat sheet lists them all. A digit pressed in a widget of
the story area that uses digits (the search field, the player's slider) stays with that
widget (see :class:`DigitsStayInFields`).
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from studio.core.model import Take, TakeStatus
from studio.ui.canvas.tree_scene import TreeScene
from studio.ui.dialogs.cheat_sheet import SHEET_KEYS, SHEET_TEXT
from studio.ui.icons import icon

COMPARE_TAKES_KEY = "Ctrl+Shift+T"
"""Compare takes: window-wide, so that it works from the take tiles as from the tree (the
workspace binds it, see ``Workspace``; the Compare button's tooltip names it)."""

FOLD_KEY = "Z"
"""Fold (or unfold) the turns after the selected turn: a letter no other action uses (`+`,
`-` and `=` zoom; `*`, an outliner's "expand all", is Shift+8 on many keyboards). As vim's
`za` toggles a fold."""
FOLD_TEXT, UNFOLD_TEXT = "Fol&d turns after this", "Unfol&d"
"""What the fold action says on a turn that is not folded, and on one that is."""

TAKE_KEYS = 9
"""Keys 1 to 9 in the story area choose take 1 to 9 of the selected turn, as the inspector
numbers them (before, a take was chosen from the keyboard only by Tab to its Use button)."""


def take_key_hint(number: int) -> str:
    """What a take's Use button says of its key: `` (key 3 in the story tree)``, or nothing
    for a take past the ninth."""
    return f" (key {number} in the story tree)" if 1 <= number <= TAKE_KEYS else ""


def take_to_choose(takes: list[Take], selected_id: str | None, number: int, turn: int) -> tuple[Take | None, str]:
    """Take ``number`` (from 1) of turn ``turn``, whose takes are ``takes`` in the inspector's
    order, when its Use button would choose it; else None and what the status bar says
    instead (a number with no such take, the chosen take, one unfinished)."""
    count = len(takes)
    if number > count:
        return None, f"Turn {turn} has {count or 'no'} take{'' if count == 1 else 's'}{'' if count else ' yet'}."
    take = takes[number - 1]
    if take.id == selected_id:
        return None, f"Take {number} is already the chosen take of turn {turn}."
    if take.status is not TakeStatus.DONE or not take.clip_path:
        state = {TakeStatus.DONE: "has no clip", TakeStatus.FAILED: "failed",
                 TakeStatus.CANCELLED: "was cancelled"}.get(take.status, "is not finished yet")
        return None, f"Take {number} of turn {turn} {state}: there is nothing to use."
    return take, ""


class StudioActions(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.groups: list[tuple[str, list[QAction]]] = []
        self.local: list[QAction] = []
        a = self._add

        self.new_project = a("File", "&New project…", "new-project", ["Ctrl+N"])
        self.open_project = a("File", "&Open project…", "open", ["Ctrl+O"])
        self.close_project = a("File", "&Close project", "", ["Ctrl+W"])
        self.save_copy = a("File", "Save a cop&y…", "", [])
        self.reopen_for_editing = a("File", "Reopen for e&diting", "", [])
        for action in (self.save_copy, self.reopen_for_editing):  # the window turns them on (see MainWindow)
            action.setEnabled(False)
        self.export = a("File", "&Export branch…", "export", ["Ctrl+E"])
        self.settings = a("File", "&Settings…", "", ["Ctrl+,"])
        self.quit = a("File", "&Quit", "", ["Ctrl+Q"])

        self.undo = a("Edit", "&Undo", "undo", ["Ctrl+Z"])
        self.redo = a("Edit", "&Redo", "redo", ["Ctrl+Shift+Z", "Ctrl+Y"])
        self.find = a("Edit", "&Find…", "search", ["Ctrl+F"])
        self.find_next = a("Edit", "Find &next", "", ["F3"])
        self.find_previous = a("Edit", "Find &previous", "", ["Shift+F3"])

        self.new_turn = a("Turn", "&New turn after this one", "new-turn", ["Return", "Enter"], local=True)
        self.generate = a("Turn", "&Generate", "generate", ["Ctrl+Return", "Ctrl+Enter"])
        self.reroll = a("Turn", "&Re-roll", "reroll", ["R"], local=True)
        self.reroll_branch = a("Turn", "Re-roll &branch below", "reroll-branch", ["Shift+R"], local=True)
        self.fill = a("Turn", "Generate &missing turns of the branch", "generate", ["Ctrl+Shift+G"])
        self.fork = a("Turn", "&Fork (new alternative)", "fork", ["F"], local=True)
        self.compare_takes = a("Turn", "Compare &takes…", "", [COMPARE_TAKES_KEY])
        self.take_menu, self.take_keys = self._take_menu()
        self.compare_branches = a("Turn", "&Compare branches…", "", ["Ctrl+Shift+B"])
        self.move_up = a("Turn", "Move alternative &up", "", ["Alt+Up"], local=True)
        self.move_down = a("Turn", "Move alternative do&wn", "", ["Alt+Down"], local=True)
        self.bookmark = a("Turn", "&Bookmark", "bookmark", ["B"], local=True)
        # what the shortcut sheet lists for actions whose text follows the selected turn
        self.reroll.setProperty(SHEET_TEXT, "Re-roll (on a turn never generated: generate it)")
        self.bookmark.setProperty(SHEET_TEXT, "Bookmark (or remove the bookmark)")
        self.delete = a("Turn", "&Delete turn and everything below", "delete", ["Delete"], local=True)

        self.go_parent = a("Navigate", "Previous turn (&parent)", "", ["Left"], local=True)
        self.go_child = a("Navigate", "Next turn (&child)", "", ["Right"], local=True)
        self.go_prev_sibling = a("Navigate", "Alternative &above", "up", ["Up"], local=True)
        self.go_next_sibling = a("Navigate", "Alternative &below", "down", ["Down"], local=True)
        self.go_first = a("Navigate", "&First turn of the branch", "", ["Home"], local=True)
        self.go_last = a("Navigate", "&Last turn of the branch", "", ["End"], local=True)
        self.next_bookmark = a("Navigate", "Next boo&kmark", "bookmark", ["F2"])
        self.previous_bookmark = a("Navigate", "Previous bookmar&k", "", ["Shift+F2"])

        self.play = a("View", "&Play branch", "play", ["Space"], local=True)
        self.zoom_in = a("View", "Zoom &in", "zoom-in", ["Ctrl++", "+", "="])
        self.zoom_out = a("View", "Zoom &out", "zoom-out", ["Ctrl+-", "-"])
        self.fit = a("View", "&Fit tree to view", "fit", ["Ctrl+0"])
        self.fold = a("View", FOLD_TEXT, "", [FOLD_KEY], local=True)
        self.fold.setProperty(SHEET_TEXT, "Fold the turns after the selected turn (or unfold them)")
        self.fold.triggered.connect(self._fold_selected)

        self.cheat_sheet = a("Help", "&Keyboard shortcuts", "keyboard", ["F1"])
        self.about = a("Help", "&About Kamishibai Studio", "", [])

        self._followed: TreeScene | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):  # the canvas of a project just opened takes the focus
            app.focusChanged.connect(self._follow_open_scene)
        self.field_undo = FieldUndoFallback(self)
        self.digits_to_fields = DigitsStayInFields(self)

    def _add(self, group: str, text: str, icon_name: str, keys: list[str], *, local: bool = False) -> QAction:
        action = QAction(icon(icon_name) if icon_name else icon("none"), text, self.parent())
        if keys:
            action.setShortcuts([QKeySequence(k) for k in keys])
        if local:
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.local.append(action)
        else:
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        for name, actions in self.groups:
            if name == group:
                actions.append(action)
                break
        else:
            self.groups.append((group, [action]))
        return action

    def _take_menu(self) -> tuple[QMenu, QActionGroup]:
        """Turn › Choose take › Take 1 … Take 9, each with its key (story area only, as R).
        One group for the nine, whose ``triggered`` gives the one chosen: the workspace
        connects it (see ``Workspace``). The shortcut sheet lists them as one line.

        The menu has no parent widget: these actions own it (the Turn menu shows it as a
        submenu). Made a child of the window, closing the window could crash the process as its
        widgets were torn down."""
        menu = QMenu("C&hoose take")
        menu.setToolTipsVisible(True)
        menu.menuAction().setIcon(icon("none"))
        menu.menuAction().setProperty(SHEET_KEYS, f"1 – {TAKE_KEYS}")
        menu.menuAction().setProperty(SHEET_TEXT, f"Choose take 1–{TAKE_KEYS} of the selected turn "
                                                  "(as the inspector numbers them)")
        group = QActionGroup(self)
        group.setExclusionPolicy(QActionGroup.ExclusionPolicy.None_)
        for number in range(1, TAKE_KEYS + 1):
            action = QAction(f"Take &{number}", self.parent())
            action.setData(number)
            action.setShortcut(QKeySequence(str(number)))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            group.addAction(action)
            menu.addAction(action)
            self.local.append(action)
        self.groups[[name for name, _ in self.groups].index("Turn")][1].append(menu.menuAction())
        return menu, group

    def _tree_scene(self) -> TreeScene | None:
        """The story canvas of the window's open project, None with none open."""
        workspace = getattr(self.parent(), "workspace", None)
        scene = getattr(workspace, "scene", None)
        if getattr(workspace, "closed", True) or not isinstance(scene, TreeScene):
            return None
        return scene

    def _follow_open_scene(self, *_focus: object) -> None:
        scene = self._tree_scene()
        if scene is not None:
            self._follow_scene(scene)

    def _fold_selected(self, *_checked: object) -> None:
        """Z: fold the turns after the selected turn, or unfold them. The scene knows the
        selection and the folds, so the action is wired here, and its text follows the
        selected turn (see :meth:`_follow_scene`)."""
        scene = self._tree_scene()
        if scene is not None:
            self._follow_scene(scene)
            scene.toggle_fold(scene.current_id)

    def _follow_scene(self, scene: TreeScene) -> None:
        """Keep the fold action's text ("Fold turns after this" or "Unfold") in step with
        ``scene``'s selection and folds."""
        if self._followed is scene:
            return
        self._followed = scene
        scene.current_changed.connect(self._fold_text)
        scene.folds_changed.connect(self._fold_text)
        self._fold_text()

    def _fold_text(self) -> None:
        scene = self._followed
        if scene is None or not shiboken6.isValid(scene):
            return
        self.fold.setText(UNFOLD_TEXT if scene.is_folded(scene.current_id) else FOLD_TEXT)

    def bind(self, action: QAction, slot: Callable[[], object]) -> None:
        """Run ``slot`` when ``action`` is triggered."""
        action.triggered.connect(lambda _checked=False: slot())


def _field_can(widget: QObject, redo: bool) -> bool | None:
    """Whether text field ``widget`` has a step of its own to undo (``redo``: to redo); None
    for a widget that is no text field."""
    if isinstance(widget, QLineEdit):
        return widget.isRedoAvailable() if redo else widget.isUndoAvailable()
    if isinstance(widget, QTextEdit | QPlainTextEdit):
        document = widget.document()
        return document.isRedoAvailable() if redo else document.isUndoAvailable()
    return None


class FocusedWidgetFilter(QObject):
    """An event filter that sits on the window's focused widget only, where :meth:`watches`
    says so (not on every event of the application); ``actions``: the window's actions."""

    def __init__(self, actions: QObject) -> None:
        super().__init__(actions)
        self._widget: QWidget | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow_focus)

    def watches(self, widget: QWidget) -> bool:
        raise NotImplementedError

    def _window(self) -> QObject | None:
        parent = self.parent()
        return parent.parent() if parent is not None else None

    def _follow_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self._widget is not None and shiboken6.isValid(self._widget):  # not deleted since
            self._widget.removeEventFilter(self)
        self._widget = None
        if new is not None and self.watches(new) and new.window() is self._window():
            new.installEventFilter(self)
            self._widget = new


class FieldUndoFallback(FocusedWidgetFilter):
    """Ctrl+Z (Ctrl+Shift+Z) in a text field with nothing of its own to undo (redo) is the
    window's Undo (Redo). A text field takes those keys even with no typing to undo, and Fork
    and New turn put the focus in the instruction's field: Ctrl+Z right after F did nothing."""

    def watches(self, widget: QWidget) -> bool:
        return _field_can(widget, False) is not None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        for key, redo in ((QKeySequence.StandardKey.Undo, False), (QKeySequence.StandardKey.Redo, True)):
            if event.matches(key):
                return _field_can(watched, redo) is False  # left unaccepted: the window's shortcut runs
        return False


DIGIT_KEYS = frozenset({Qt.Key.Key_0, Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4, Qt.Key.Key_5,
                        Qt.Key.Key_6, Qt.Key.Key_7, Qt.Key.Key_8, Qt.Key.Key_9})


def takes_digits(widget: QObject) -> bool:
    """Whether ``widget`` has a use of its own for a digit key: text (a field, an editable
    drop-down), a number (a spin box), or a position (a slider: the player's jumps to a tenth
    of the clip per digit). The take keys 1-9 are for the story tree and the widgets that
    type nothing (buttons, the tree, the episode strip)."""
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, QLineEdit | QTextEdit | QPlainTextEdit):
        return not widget.isReadOnly()
    return isinstance(widget, QAbstractSpinBox | QAbstractSlider)


def is_digit_key(event: QKeyEvent) -> bool:
    """A plain digit (the keypad's too), as a take key or typed text."""
    return event.key() in DIGIT_KEYS and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier


class DigitsStayInFields(FocusedWidgetFilter):
    """A digit pressed in a widget that uses digits (see :func:`takes_digits`) goes to that
    widget, never to the take keys 1-9 (nor to another shortcut of a digit): those keys are
    bound to the story area, which holds the player's slider and the search field too, and
    a 3 pressed on the focused slider chose take 3 instead of moving the slider."""

    def watches(self, widget: QWidget) -> bool:
        return takes_digits(widget)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and is_digit_key(event)
                and takes_digits(watched)):
            event.accept()  # the key press goes to the widget, not to a shortcut
            return True
        return False
