"""The Start inspector: what the story starts from, each cast member's state, editable.

A change becomes the document's undoable "Set start state" command (see the workspace).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from studio.core.state import STAT_NAMES, STATE_MAX, STATE_MIN, CharacterState, StateScope
from studio.core.tree import StoryTree
from studio.ui import palette
from studio.ui.text_wrap import breakable


class StartPanel(QWidget):
    start_state_changed = Signal(str, object)  # character name ("" for everyone), CharacterState

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setObjectName("dimLabel")
        self.grid_host = QWidget(self)
        self.grid = QGridLayout(self.grid_host)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(8)
        self.grid.setVerticalSpacing(4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.grid_host)
        self.spins: dict[str, dict[str, QSpinBox]] = {}
        self._shown: tuple[object, ...] = ()
        self.states: dict[str, CharacterState] = {}

    def set_tree(self, tree: StoryTree) -> None:
        shared = tree.state_scope is StateScope.BRANCH
        names = [""] if shared else [m.name for m in tree.cast.values() if m.name.strip()]
        states = {name: tree.start_state_of(name) for name in names}
        # what the summary and the grid show: the summary names the whole cast and every place
        # (in a project with one shared state the boxes are the same whatever the cast); the
        # values are compared with the boxes themselves, which may hold a value saved since
        key = (shared, tuple(names), tuple(m.name for m in tree.cast.values()),
               tuple(loc.name for loc in tree.locations.values()))
        if key != self._shown:
            self._shown = key
            self._show_summary(tree, shared)
            focused = self._focused_box()
            self._build_grid(names, states)
            if focused is not None and focused[0] in self.spins:  # the same box keeps the focus
                self.spins[focused[0]][focused[1]].setFocus(Qt.FocusReason.OtherFocusReason)
        else:  # the same boxes: the focus and the typing stay
            self._show_values(states)
        self.states = states

    def _show_summary(self, tree: StoryTree, shared: bool) -> None:
        # names are the author's text, shown as written (the summary itself is rich text)
        # a long word (a place named after its image file) wraps rather than widen the inspector
        cast = ", ".join(escape(breakable(m.name)) for m in tree.cast.values()) \
            or "no characters yet (add them in the Cast panel)"
        places = ", ".join(escape(breakable(loc.name)) for loc in tree.locations.values()) or "the engine's own places"
        scope = ("one state runs down each branch whatever character acts" if shared
                 else "each character has their own state; a turn changes its acting character's")
        self.summary.setText(f"<b>Cast:</b> {cast}<br><b>Places:</b> {places}<br>"
                             f"<span>State: {scope}. Set where everyone starts:</span>")

    def _focused_box(self) -> tuple[str, str] | None:
        """The character and the stat of the box holding the keyboard focus, if one does."""
        for name, spins in self.spins.items():
            for stat, spin in spins.items():
                if spin.hasFocus():
                    return name, stat
        return None

    def _show_values(self, states: dict[str, CharacterState]) -> None:
        """Put ``states`` in the boxes (the start changed: an edit saved, an undo, a redo). A
        box being typed in (its value is neither the one it showed nor the one it saved) keeps
        what was typed: leaving it saves it."""
        for name, spins in self.spins.items():
            for stat, spin in spins.items():
                value = getattr(states[name], stat)
                known = self.states.get(name)
                typed = spin.hasFocus() and known is not None and spin.value() != getattr(known, stat)
                if spin.value() != value and not typed:
                    spin.setValue(value)

    def _build_grid(self, names: list[str], states: dict[str, CharacterState]) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.spins = {}
        for column, stat in enumerate(STAT_NAMES, start=1):
            label = QLabel(palette.STAT_LABELS[stat], self.grid_host)
            label.setObjectName("dimLabel")
            self.grid.addWidget(label, 0, column)
        for row, name in enumerate(names, start=1):
            who = QLabel(breakable(name) or "Everyone", self.grid_host)
            who.setTextFormat(Qt.TextFormat.PlainText)
            who.setWordWrap(True)  # a long name wraps: the boxes beside it stay in sight
            self.grid.addWidget(who, row, 0)
            spins: dict[str, QSpinBox] = {}
            for column, stat in enumerate(STAT_NAMES, start=1):
                spin = QSpinBox(self.grid_host)
                spin.setRange(STATE_MIN, STATE_MAX)
                spin.setSingleStep(5)
                spin.setValue(getattr(states[name], stat))
                spin.setToolTip(f"{name or 'Everyone'}'s {palette.STAT_LABELS[stat].lower()} at the start")
                spin.editingFinished.connect(lambda n=name: self._commit(n))
                self.grid.addWidget(spin, row, column)
                spins[stat] = spin
            self.spins[name] = spins

    def _commit(self, name: str) -> None:
        spins = self.spins.get(name)
        if not spins:
            return
        state = CharacterState(*(spins[stat].value() for stat in STAT_NAMES))
        if state != self.states.get(name):
            self.states[name] = state
            self.start_state_changed.emit(name, state)
