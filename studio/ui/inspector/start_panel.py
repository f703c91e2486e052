"""The Start inspector: what the story starts from, each cast member's state, editable.

A change becomes the document's undoable "Set start state" command (see the workspace).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from studio.core.state import STAT_NAMES, STATE_MAX, STATE_MIN, CharacterState, StateScope
from studio.core.tree import StoryTree
from studio.ui import palette
from studio.ui.inspector.wheel_guard import FocusWheelSpinBox
from studio.ui.text_wrap import breakable

SPIN_ROOM = 48
"""A start box's width beside its digits: the padding, the frame and the arrows (the theme's
22 pixels)."""

SPACING = 8
"""Between a name and its boxes, and between the boxes."""
STACKED_SPACING = 4
"""Between the boxes under a name (a narrow inspector)."""


@dataclass(frozen=True, slots=True)
class _Typing:
    """What the focused box of the Start panel held when its grid was rebuilt."""

    row_id: str
    """The cast id of its character ("" for the shared row)."""
    stat: str
    text: str
    cursor: int
    edited: bool
    """Whether its text differs from the value it was shown with (typed, not saved yet)."""


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
        self.grid.setHorizontalSpacing(SPACING)
        self.grid.setVerticalSpacing(4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.grid_host)
        self.spins: dict[str, dict[str, QSpinBox]] = {}
        self._shown: tuple[object, ...] = ()
        """What the summary shows: the scope, the whole cast and every place."""
        self._rows: tuple[object, ...] = ()
        """What the grid's rows are: the scope and each row's character."""
        self._row_ids: dict[str, str] = {}
        """Each row's cast id by its name ("" for the shared row): a renamed character's
        typing goes on in its renamed row."""
        self.states: dict[str, CharacterState] = {}
        self._headers: list[QLabel] = []
        self._names: list[QLabel] = []
        """The grid's rows' names, in the order of :attr:`spins`."""
        self._stacked: bool | None = None
        """Whether each name is above its boxes (a narrow inspector) rather than beside them."""
        self.read_only_reason: str | None = None
        """Why the start can't be changed (see :meth:`set_read_only`); None when it can."""

    def set_read_only(self, reason: str | None) -> None:
        """The boxes show the start's values but don't change them; ``reason`` is their tooltip."""
        self.read_only_reason = reason
        for spins in self.spins.values():
            for spin in spins.values():
                self._lock(spin)

    def _lock(self, spin: QSpinBox) -> None:
        spin.setReadOnly(self.read_only_reason is not None)
        spin.setToolTip(self.read_only_reason or spin.accessibleName())

    def set_tree(self, tree: StoryTree) -> None:
        shared = tree.state_scope is StateScope.BRANCH
        members = [] if shared else [m for m in tree.cast.values() if m.name.strip()]
        names = [""] if shared else [m.name for m in members]
        states = {name: tree.start_state_of(name) for name in names}
        # the summary names the whole cast and every place (in a project with one shared state
        # the boxes are the same whatever the cast: only the summary changes then)
        summary = (shared, tuple(m.name for m in tree.cast.values()),
                   tuple(loc.name for loc in tree.locations.values()))
        if summary != self._shown:
            self._shown = summary
            self._show_summary(tree, shared)
        rows = (shared, tuple(names))
        if rows != self._rows:
            self._rows = rows
            typing = self._typing()
            self._build_grid(names, states)
            self._row_ids = {"": ""} if shared else {m.name: m.id for m in members}
            self.states = states
            if typing is not None:
                self._carry_over(typing)
        else:  # the same boxes: the focus and the typing stay; the values are compared with the
            # boxes themselves, which may hold a value saved since
            self._show_values(states)
            self.states = states

    def _typing(self) -> _Typing | None:
        """The box holding the keyboard focus, as its character's cast id, its stat, its text
        and its cursor: what a rebuilt grid gives back (None when no box has the focus)."""
        for name, spins in self.spins.items():
            for stat, spin in spins.items():
                if spin.hasFocus():
                    edit = spin.lineEdit()
                    shown = self.states.get(name)
                    # typed: the box says something else than the value it was shown with
                    # (an emptied box too, whose value has not changed yet)
                    edited = shown is None or edit.text() != spin.textFromValue(getattr(shown, stat))
                    return _Typing(self._row_ids.get(name, name), stat, edit.text(), edit.cursorPosition(), edited)
        return None

    def _carry_over(self, typing: _Typing) -> None:
        """Give the rebuilt grid's box of the same character (renamed or not) and stat the
        focus, and what was typed in it: the cast changed under the author's typing (a
        character added, removed or renamed, an undo), which must not throw it away. A
        character removed takes its box away: the focus stays in the panel."""
        name = next((row for row, member_id in self._row_ids.items() if member_id == typing.row_id), None)
        if name is None or name not in self.spins:
            self.setFocus(Qt.FocusReason.OtherFocusReason)  # not into another character's box
            return
        spin = self.spins[name][typing.stat]
        if typing.edited:
            spin.lineEdit().setText(typing.text)
            spin.lineEdit().setCursorPosition(typing.cursor)
        spin.show()  # a box just laid out is shown later, and a hidden box can't take the focus
        spin.setFocus(Qt.FocusReason.OtherFocusReason)

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
                # a box let go of says nothing more: losing the focus to its rebuilt twin would
                # save its value (half typed: 7 on the way to 75) as one more undo step
                widget.blockSignals(True)
                widget.deleteLater()
        self.spins = {}
        self._headers = []
        self._names = []
        for stat in STAT_NAMES:
            label = QLabel(palette.STAT_LABELS[stat], self.grid_host)
            label.setObjectName("dimLabel")
            self._headers.append(label)
        for name in names:
            who = QLabel(breakable(name) or "Everyone", self.grid_host)
            who.setTextFormat(Qt.TextFormat.PlainText)
            who.setWordWrap(True)  # a long name wraps: the boxes beside it stay in sight
            self._names.append(who)
            spins: dict[str, QSpinBox] = {}
            for stat in STAT_NAMES:
                spin = FocusWheelSpinBox(self.grid_host)
                spin.setRange(STATE_MIN, STATE_MAX)
                spin.setSingleStep(5)
                spin.setValue(getattr(states[name], stat))
                # as narrow as "100" and the arrows need: at Qt's own width (102 pixels) three
                # boxes beside a name such as "Bartholomew" were wider than the inspector, which
                # scrolled sideways and cut the cast list above
                spin.setMinimumWidth(spin.fontMetrics().horizontalAdvance(str(STATE_MAX)) + SPIN_ROOM)
                spin.setToolTip(f"{name or 'Everyone'}'s {palette.STAT_LABELS[stat].lower()} at the start")
                spin.setAccessibleName(spin.toolTip())  # the grid's labels are no buddies: the name says whose
                spin.editingFinished.connect(lambda n=name: self._commit(n))
                self._lock(spin)
                spins[stat] = spin
            self.spins[name] = spins
        self._stacked = None
        self._place(stacked=self.width() < self._side_by_side_width())

    def _side_by_side_width(self) -> int:
        """The grid's narrowest with each name beside its boxes."""
        names = max((who.minimumSizeHint().width() for who in self._names), default=0)
        boxes = [spin.minimumWidth() for spins in self.spins.values() for spin in spins.values()][:len(STAT_NAMES)]
        return names + sum(boxes) + SPACING * len(STAT_NAMES)

    def _boxes_width(self) -> int:
        """A row of boxes at their narrowest, stacked under their name (closer together)."""
        boxes = [spin.minimumWidth() for spins in self.spins.values() for spin in spins.values()][:len(STAT_NAMES)]
        return sum(boxes) + STACKED_SPACING * (len(STAT_NAMES) - 1)

    def _place(self, *, stacked: bool) -> None:
        """Each name beside its boxes, or (``stacked``, in a narrow inspector) above them."""
        if stacked == self._stacked:
            return
        self._stacked = stacked
        while self.grid.count():
            self.grid.takeAt(0)
        self.grid.setHorizontalSpacing(STACKED_SPACING if stacked else SPACING)
        first = 0 if stacked else 1  # the first box's column
        for column, label in enumerate(self._headers, start=first):
            self.grid.addWidget(label, 0, column)
        for index, (who, spins) in enumerate(zip(self._names, self.spins.values(), strict=True)):
            row = 1 + 2 * index if stacked else 1 + index
            if stacked:
                self.grid.addWidget(who, row, 0, 1, len(STAT_NAMES))
            else:
                self.grid.addWidget(who, row, 0)
            for column, spin in enumerate(spins.values(), start=first):
                self.grid.addWidget(spin, row + 1 if stacked else row, column)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """As narrow as the boxes stacked under their names: a narrow inspector keeps them
        in sight instead of scrolling sideways."""
        hint = super().minimumSizeHint()
        if not self.spins:
            return hint
        return QSize(min(hint.width(), max(self.summary.minimumSizeHint().width(), self._boxes_width())),
                     hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self.spins:
            self._place(stacked=self.width() < self._side_by_side_width())

    def commit_typed(self) -> None:
        """Save a value typed in a box and not saved yet (a box saves as it loses the focus or
        on Enter): before an undo, which it would otherwise follow as a new edit."""
        for name in list(self.spins):
            self._commit(name)

    def _commit(self, name: str) -> None:
        spins = self.spins.get(name)
        if not spins:
            return
        state = CharacterState(*(spins[stat].value() for stat in STAT_NAMES))
        if state != self.states.get(name):
            self.states[name] = state
            self.start_state_changed.emit(name, state)
