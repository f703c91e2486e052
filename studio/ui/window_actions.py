"""Every command of the window as a QAction with its shortcut, grouped into menus.

Single-key shortcuts (arrows, R, F, Delete, Space, Enter, B) are bound to the story area
(canvas and episode strip) only, so typing in the inspector never triggers them; the
menus still show them, and the F1 cheat sheet lists them all.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from studio.ui.icons import icon


class StudioActions(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.groups: list[tuple[str, list[QAction]]] = []
        self.local: list[QAction] = []
        a = self._add

        self.new_project = a("File", "&New project…", "new-project", ["Ctrl+N"])
        self.open_project = a("File", "&Open project…", "open", ["Ctrl+O"])
        self.close_project = a("File", "&Close project", "", ["Ctrl+W"])
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
        self.move_up = a("Turn", "Move alternative &up", "", ["Alt+Up"], local=True)
        self.move_down = a("Turn", "Move alternative do&wn", "", ["Alt+Down"], local=True)
        self.bookmark = a("Turn", "&Bookmark", "bookmark", ["B"], local=True)
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

        self.cheat_sheet = a("Help", "&Keyboard shortcuts", "keyboard", ["F1"])
        self.about = a("Help", "&About Kamishibai Studio", "", [])

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

    def bind(self, action: QAction, slot: Callable[[], object]) -> None:
        """Run ``slot`` when ``action`` is triggered."""
        action.triggered.connect(lambda _checked=False: slot())
