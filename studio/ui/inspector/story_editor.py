"""A turn's story fields in the inspector: dialogue lines, narration, duration, shot notes.

Each field is committed on its own (the workspace turns the signals into the document's
undoable commands, one per field: "Edit dialogue", "Edit narration"...), when the author
leaves the field or stops typing for a moment, never on every key press.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent, QResizeEvent, QValidator
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.graphemes import whole_characters
from studio.core.story import (
    MAX_DURATION_S,
    MAX_LINE_CHARS,
    MAX_NARRATION_CHARS,
    MAX_NOTES_CHARS,
    MAX_SPEAKER_CHARS,
    DialogueLine,
    StoryFieldError,
    StoryFields,
    check_story,
    parse_duration,
)
from studio.ui.inspector.wheel_guard import FocusWheelComboBox, FocusWheelDoubleSpinBox

TEXT_DEBOUNCE_MS = 700
CLIP_LENGTH = "clip length"
SPEAKER_MIN_WIDTH = 90
"""The speaker box's narrowest (about six characters): in a narrow inspector it gives way to
the line's text box beside it rather than widen the inspector."""
LINE_TEXT_MIN_WIDTH = 80
"""The room a line's text box keeps beside the speaker box."""


class _FocusOutText(QPlainTextEdit):
    """A plain text box that says when it loses focus (to commit what was typed) and holds at
    most ``limit`` characters (what the document accepts: more would be refused when saved,
    and lost when the author moves on)."""

    left = Signal()

    def __init__(self, limit: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.limit = limit
        self.setTabChangesFocus(True)  # Tab moves on, as in every other field: a keyboard way out
        self.textChanged.connect(self._keep_to_limit)

    def _keep_to_limit(self) -> None:
        text = self.toPlainText()
        if len(text) > self.limit:
            kept = whole_characters(text, self.limit)  # never half an emoji, nor a letter without its accent
            cursor = self.textCursor()
            position = min(cursor.position(), utf16_length(kept))
            self.blockSignals(True)
            self.setPlainText(kept)
            self.blockSignals(False)
            cursor = self.textCursor()
            cursor.setPosition(position)
            self.setTextCursor(cursor)

    def focusOutEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().focusOutEvent(event)
        self.left.emit()


def read_only_text(box: QPlainTextEdit, reason: str | None) -> None:
    """``box`` read-only (``reason``: why) with its text still selectable by mouse and keys and
    copyable, or editable again (None)."""
    box.setReadOnly(reason is not None)
    if reason is not None:  # read-only alone leaves the keyboard no way to select
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                    | Qt.TextInteractionFlag.TextSelectableByKeyboard)


def utf16_length(text: str) -> int:
    """``text``'s length as Qt counts it (an emoji or another character past U+FFFF is two)."""
    return len(text.encode("utf-16-le")) // 2


def one_line(text: str) -> str:
    """``text`` with its line breaks as spaces: a dialogue line or a speaker is one line (pasted
    text of several lines was kept in the box, then refused when saved)."""
    return " ".join(text.splitlines())


def hold_to_limit(edit: QLineEdit, limit: int) -> None:
    """Hold ``edit`` to one line (:func:`one_line`) of ``limit`` characters as the document
    counts them. (Qt's own maximum
    length counts UTF-16 units, an emoji twice: a stored line of 600 emoji, well within the
    1,000 characters a line may hold, showed cut to 500, and leaving the turn saved it so.)"""

    def trim(text: str) -> None:
        flat = one_line(text)
        if len(flat) > limit or flat != text:
            cursor = edit.cursorPosition()
            kept = whole_characters(flat, limit)  # cut between characters: "👍🏽" kept whole or not at all
            edit.setText(kept)
            edit.setCursorPosition(min(cursor, utf16_length(kept)))

    edit.textChanged.connect(trim)


class DurationBox(FocusWheelDoubleSpinBox):
    """The turn's duration, in seconds to a tenth. Qt's own box dropped every key it could
    not take without a word: ``999999`` typed became 99 s, ``1e3`` 13 s, ``0.05`` the clip's
    length, and leaving the box saved that. Here what is typed stays in the box as typed;
    leaving it (or Enter) with text that is no duration says so through :attr:`refused`, and
    the box goes back to the turn's own duration, unsaved."""

    refused = Signal(str)  # the text as typed (the suffix taken off)
    accepted = Signal()  # left with a duration it takes (a refusal said before is over)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setKeyboardTracking(False)  # the value follows the text when it is left, not on each key

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        """Qt's answer, or a duration written as a person writes it (``3.5s``); any other text
        is kept, to be refused when the box is left."""
        answer = super().validate(text, pos)
        if answer[0] == QValidator.State.Acceptable:
            return answer
        if self._written(self._unsuffixed(text)) is not None:
            return QValidator.State.Acceptable, text, pos
        return QValidator.State.Intermediate, text, pos

    def valueFromText(self, text: str) -> float:  # noqa: N802 (Qt's name)
        seconds = self._written(self._unsuffixed(text))
        return seconds if seconds is not None else super().valueFromText(text)

    def _written(self, typed: str) -> float | None:
        """``typed`` read as :func:`parse_duration` reads it, to the tenths the box holds; None
        when it is no such duration."""
        try:
            seconds = parse_duration(typed)
        except StoryFieldError:
            return None
        return seconds if round(seconds, self.decimals()) == seconds else None

    def _unsuffixed(self, text: str) -> str:
        text = text.strip()
        suffix = self.suffix().strip()
        return text[: -len(suffix)].strip() if suffix and text.endswith(suffix) else text

    def typed(self) -> str:
        """The text in the box without its suffix (what the author wrote)."""
        return self._unsuffixed(self.lineEdit().text())

    def typed_value(self) -> float | None:
        """The value the box's text reads as, before it is left (the value follows only then);
        None when the text is no duration the box takes."""
        text = self.lineEdit().text()
        if text == self.specialValueText():
            return self.minimum()
        if self.validate(text, self.lineEdit().cursorPosition())[0] != QValidator.State.Acceptable:
            return None
        return round(self.valueFromText(text), self.decimals())

    def check_typed(self) -> None:
        """Say (:attr:`refused`) when the text in the box is no duration it can take."""
        text, pos = self.lineEdit().text(), self.lineEdit().cursorPosition()
        if self.validate(text, pos)[0] != QValidator.State.Acceptable and text != self.specialValueText():
            self.refused.emit(self.typed())
        else:
            self.accepted.emit()

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt's name)
        self.check_typed()
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.check_typed()
        super().keyPressEvent(event)


def duration_refusal(typed: str, kept: float | None) -> str:
    """What the note under the duration box says of ``typed``, which the box could not take."""
    try:
        parse_duration(typed)
    except StoryFieldError as error:
        why = error.message
    else:  # a duration, but finer than the box shows
        why = f"The duration box takes tenths of a second, not {typed!r}."
    keeps = f"{kept:g} s" if kept is not None else "the clip's own length"
    return (f"Duration not changed: {why} Type 0.1 to {MAX_DURATION_S:g} seconds (3, 3.5 or 3.5s), "
            f"or 0 for the clip's own length. The turn keeps {keeps}.")


class DialogueRow(QWidget):
    """One spoken line: speaker (the cast, or any name) and text, with a remove button."""

    line_edited = Signal()
    remove_requested = Signal()
    move_requested = Signal(int)  # -1: one place up, +1: one place down (Alt+Up, Alt+Down)

    def __init__(self, line: DialogueLine, speakers: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.speaker = FocusWheelComboBox(self)
        self.speaker.setEditable(True)
        self.speaker.addItems(speakers)
        self.speaker.setCurrentText(line.speaker)
        self.speaker.setToolTip("Who speaks (leave empty for a voice off screen)")
        self.speaker.setAccessibleName("Speaker")
        # as wide as ten characters, whatever the cast: sized to its longest name (a cast name
        # may be 60 characters long), it squeezed the line's text box beside it to a sliver
        self.speaker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.speaker.setMinimumContentsLength(10)
        # ...but it may give way to the text box in a narrow inspector (the name scrolls in its box)
        self.speaker.setMinimumWidth(SPEAKER_MIN_WIDTH)
        self.text = QLineEdit(line.text, self)
        hold_to_limit(self.text, MAX_LINE_CHARS)  # what a line may hold: longer would be refused, and lost
        self.text.setPlaceholderText("What they say")
        self.text.setCursorPosition(0)  # a long line shows its beginning, not its end
        self.remove = QToolButton(self)
        self.remove.setText("✕")
        self.remove.setToolTip("Remove this line")
        self.remove.setAccessibleName("Remove this line")  # "✕" is no word to read out
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.speaker)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.remove)
        self.text.editingFinished.connect(self._edited)
        self.speaker.activated.connect(self._edited)
        line_edit = self.speaker.lineEdit()
        if line_edit is not None:
            hold_to_limit(line_edit, MAX_SPEAKER_CHARS)
            line_edit.editingFinished.connect(self._edited)
        self.remove.clicked.connect(self._remove)
        self.speaker.currentTextChanged.connect(self._fit_speaker)  # a longer name typed widens it again
        self.text.setToolTip("What they say (Alt+Up and Alt+Down move the line)")
        self.text.setAccessibleName("What they say")
        for box in (self.text, self.speaker, self.speaker.lineEdit()):
            if box is not None:  # the speaker's typing box gets the keys (Alt+Down would open its list)
                box.installEventFilter(self)

    def _beside(self) -> int:
        """The remove button and the gaps between the row's three boxes."""
        layout = self.layout()
        spacing = layout.spacing() if layout is not None else 0
        return self.remove.sizeHint().width() + 2 * spacing

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        """Room for the speaker at its narrowest and :data:`LINE_TEXT_MIN_WIDTH` of text: in a
        narrower inspector the row goes under its "Dialogue" label instead."""
        hint = super().minimumSizeHint()
        return QSize(SPEAKER_MIN_WIDTH + LINE_TEXT_MIN_WIDTH + self._beside(), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        """In a narrow inspector the speaker box gives way (down to :data:`SPEAKER_MIN_WIDTH`)
        so that the line's text box keeps :data:`LINE_TEXT_MIN_WIDTH` to type in."""
        super().resizeEvent(event)
        self._fit_speaker()

    def _fit_speaker(self, *_args: object) -> None:
        """The speaker box as wide as its name needs (from :data:`SPEAKER_MIN_WIDTH` to its ten
        characters), the line's text box taking the rest: with a short name ("Qiqi") the box
        kept ten characters' room and the line beside it was cut ("Where is the clock to")."""
        widest = max(SPEAKER_MIN_WIDTH, self.width() - self._beside() - LINE_TEXT_MIN_WIDTH)
        metrics = self.speaker.fontMetrics()
        room = self.speaker.sizeHint().width()  # ten characters and the box's frame and arrow
        frame = room - metrics.horizontalAdvance("x") * self.speaker.minimumContentsLength()
        needed = frame + metrics.horizontalAdvance(self.speaker.currentText()) + 4
        wanted = max(SPEAKER_MIN_WIDTH, min(widest, room, needed))
        if self.speaker.maximumWidth() != wanted:
            self.speaker.setMaximumWidth(wanted)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """Alt+Up and Alt+Down in the line's boxes move it among the turn's lines."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.modifiers() == Qt.KeyboardModifier.AltModifier \
                and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.move_requested.emit(-1 if event.key() == Qt.Key.Key_Up else 1)
            return True
        return super().eventFilter(watched, event)

    def set_speakers(self, speakers: list[str]) -> None:
        """Offer ``speakers`` (the cast changed); the speaker shown or being typed stays, with
        its cursor, and nothing is committed."""
        if [self.speaker.itemText(i) for i in range(self.speaker.count())] == speakers:
            return
        line_edit = self.speaker.lineEdit()
        text = self.speaker.currentText()
        cursor = line_edit.cursorPosition() if line_edit is not None else 0
        self.speaker.blockSignals(True)
        self.speaker.clear()
        self.speaker.addItems(speakers)
        self.speaker.setCurrentText(text)
        self.speaker.blockSignals(False)
        if line_edit is not None:
            line_edit.setCursorPosition(cursor)

    def _edited(self, *_args: object) -> None:
        self.line_edited.emit()

    def _remove(self, *_args: object) -> None:
        self.remove_requested.emit()

    def set_read_only(self, reason: str | None) -> None:
        """Text that can be selected and copied but not changed; the remove button off, saying why."""
        self.text.setReadOnly(reason is not None)
        self.speaker.set_locked(reason)
        self.remove.setEnabled(reason is None)
        self.remove.setToolTip(reason or "Remove this line")

    def line(self) -> DialogueLine:
        return DialogueLine(" ".join(self.speaker.currentText().split()), self.text.text().strip())


class StoryEditor(QWidget):
    """Dialogue, narration, duration and shot notes of one turn."""

    dialogue_changed = Signal(object)  # tuple[DialogueLine, ...]
    narration_changed = Signal(str)
    duration_changed = Signal(object)  # float | None
    shot_notes_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.story = StoryFields()
        self._sent: dict[str, object] = {}  # what each field last committed (its own edit coming back)
        self._duration_shown = 0.0  # the duration box's value as set or last committed: typed when it differs
        self.speakers: list[str] = []
        self.default_speaker = ""
        self.read_only_reason: str | None = None
        """Why the story can't be changed (see :meth:`set_read_only`); None when it can."""
        self.rows: list[DialogueRow] = []
        self._lines_box = QVBoxLayout()
        self._lines_box.setContentsMargins(0, 0, 0, 0)
        self._lines_box.setSpacing(3)
        self.add_line = QPushButton("Add a line", self)
        self.add_line.setToolTip("Add a line of dialogue")
        self.narration = _FocusOutText(MAX_NARRATION_CHARS, self)
        self.narration.setPlaceholderText("What the narrator says over this turn")
        self.narration.setFixedHeight(54)
        self.duration = DurationBox(self)
        self.duration.setRange(0.0, MAX_DURATION_S)
        self.duration.setDecimals(1)
        self.duration.setSingleStep(0.5)
        self.duration.setSuffix(" s")
        self.duration.setSpecialValueText(CLIP_LENGTH)
        self.duration.setToolTip("How long the turn lasts in the episode: the clip is held on its last frame or "
                                 "trimmed. 'clip length' keeps the clip as it is.")
        self.duration_note = QLabel(self)  # why a duration typed was not saved (hidden otherwise)
        self.duration_note.setWordWrap(True)
        self.duration_note.setAccessibleName("Duration refused")
        self.duration_note.setStyleSheet("color: palette(link);")
        self.duration_note.hide()
        self.shot_notes = _FocusOutText(MAX_NOTES_CHARS, self)
        self.shot_notes.setPlaceholderText("Notes for the shot (framing, sound, cut)")
        self.shot_notes.setFixedHeight(54)

        lines = QVBoxLayout()
        lines.setContentsMargins(0, 0, 0, 0)
        lines.addLayout(self._lines_box)
        lines.addWidget(self.add_line, 0, Qt.AlignmentFlag.AlignLeft)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # narrow: a label goes above its field
        form.addRow("Dialogue", lines)
        form.addRow("Narration", self.narration)
        form.addRow("Duration", self.duration)
        form.addRow("", self.duration_note)
        form.addRow("Shot notes", self.shot_notes)

        self._narration_timer = self._debounce(lambda: self._commit_text(self.narration, "narration"))
        self._notes_timer = self._debounce(lambda: self._commit_text(self.shot_notes, "shot_notes"))
        self.narration.textChanged.connect(self._narration_timer.start)
        self.shot_notes.textChanged.connect(self._notes_timer.start)
        self.narration.left.connect(lambda: self._commit_typed(self.narration, "narration", self._narration_timer))
        self.shot_notes.left.connect(lambda: self._commit_typed(self.shot_notes, "shot_notes", self._notes_timer))
        self.duration.editingFinished.connect(self._commit_duration)
        self.duration.refused.connect(self._refuse_duration)
        self.duration.accepted.connect(self.duration_note.hide)
        self.add_line.clicked.connect(self.add_dialogue_line)

    def _debounce(self, fn) -> QTimer:  # type: ignore[no-untyped-def]
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(TEXT_DEBOUNCE_MS)
        timer.timeout.connect(fn)
        return timer

    # -- showing ---------------------------------------------------------------------------

    def set_story(self, story: StoryFields, speakers: list[str], default_speaker: str, *,
                  reset: bool = False, sent_over: bool = False) -> None:
        """Show ``story``; fields the author is typing in are left alone (``reset``: another turn),
        unless the story changed there from elsewhere (an undo, a redo): then the field shows it,
        and what was typed since is not saved over it. ``sent_over``: ``story`` comes from the
        snapshot the last edit was sent over (it is not in it yet)."""
        self.speakers = list(speakers)
        self.default_speaker = default_speaker
        if reset:
            self._sent = {}
            self.duration_note.hide()
        elif sent_over:
            # The snapshot an edit was just sent over (a redraw for a change elsewhere, a take
            # landing): it is older than the fields, which stay as they are. Read as an undo,
            # the text just sent was put back over its box, moving the cursor to the start, and
            # the next keys landed there.
            self.story = story
            for row in self.rows:
                row.set_speakers(self.speakers)
            return
        # The rows are rebuilt for another turn, or when the turn's lines changed from elsewhere
        # (an undo), not for a line being typed (the document has not changed under it). The
        # rows still showing the lines they last saved, over which the turn holds others, is an
        # undo too: one made before the save was shown (the window hears of both together, and
        # the turn then holds the lines it held when last shown).
        lines = self.dialogue()
        undone = "dialogue" in self._sent and self._sent["dialogue"] == lines != story.dialogue
        if reset or undone or (story.dialogue != self.story.dialogue and story.dialogue != lines):
            self._sent.pop("dialogue", None)
            self._set_rows(story.dialogue)
        else:  # the rows stay: a character added or renamed meanwhile is offered in them too
            for row in self.rows:
                row.set_speakers(self.speakers)
        old, self.story = self.story, story
        for box, name, timer in ((self.narration, "narration", self._narration_timer),
                                 (self.shot_notes, "shot_notes", self._notes_timer)):
            value, shown = getattr(story, name), box.toPlainText().strip()
            # the box holds what it last saved, or the turn's text as it showed it (nothing was
            # typed since), and the turn now holds something else: an undo, a redo
            elsewhere = (shown == self._sent[name] if name in self._sent else shown == getattr(old, name)) \
                and shown != value
            typing = box.hasFocus() or timer.isActive()  # typed, and waiting for its pause to be saved
            if shown != value and (reset or not typing or elsewhere):
                timer.stop()
                box.blockSignals(True)
                box.setPlainText(value)
                box.blockSignals(False)
                if elsewhere:
                    self._sent[name] = value  # it shows the turn's text again: a redo can follow
        reads = self.duration.typed_value()  # what its text says, left or still being typed
        if "duration" in self._sent:  # what it last saved, and the turn holds something else
            typed = None if reads is None or reads <= 0.0 else round(reads, 3)
            elsewhere = reads is not None and typed == self._sent["duration"] != story.duration
        else:  # nothing typed since the turn was shown, and the turn changed
            elsewhere = reads == self._duration_shown and story.duration != old.duration
        if reset or not self.duration.hasFocus() or elsewhere:
            self.duration.blockSignals(True)
            self.duration.setValue(story.duration or 0.0)
            self.duration.blockSignals(False)
            self._duration_shown = self.duration.value()  # shown to one decimal: 3.25 s shows as 3.2

    def _set_rows(self, lines: tuple[DialogueLine, ...]) -> None:
        for row in self.rows:
            self._drop_row(row)
        self.rows = []
        for line in lines:
            self._append_row(line)

    def _append_row(self, line: DialogueLine) -> DialogueRow:
        row = DialogueRow(line, self.speakers, self)
        row.line_edited.connect(self._commit_dialogue)
        row.remove_requested.connect(lambda r=row: self._remove_row(r))
        row.move_requested.connect(lambda delta, r=row: self.move_row(r, delta))
        row.set_read_only(self.read_only_reason)
        self._lines_box.addWidget(row)
        self.rows.append(row)
        return row

    def set_read_only(self, reason: str | None) -> None:
        """Every field can be read, selected and copied but not changed; Add a line is off with
        ``reason`` as its tooltip. None makes them editable again."""
        self.read_only_reason = reason
        for box in (self.narration, self.shot_notes):
            read_only_text(box, reason)
        self.duration.setReadOnly(reason is not None)
        self.add_line.setEnabled(reason is None)
        self.add_line.setToolTip(reason or "Add a line of dialogue")
        for row in self.rows:
            row.set_read_only(reason)

    # -- edits -----------------------------------------------------------------------------

    def add_dialogue_line(self) -> DialogueRow:
        """A new empty line (committed once it has text), its text box focused."""
        row = self._append_row(DialogueLine(self.default_speaker, ""))
        row.text.setFocus(Qt.FocusReason.OtherFocusReason)
        return row

    def move_row(self, row: DialogueRow, delta: int) -> None:
        """Move ``row`` ``delta`` places (up when negative) among the lines and save the new
        order as one edit; the box that had the focus keeps it."""
        if row not in self.rows or self.read_only_reason is not None:
            return
        at = self.rows.index(row)
        to = max(0, min(len(self.rows) - 1, at + delta))
        if to == at:
            return
        focused = self.focusWidget()
        self.rows.insert(to, self.rows.pop(at))
        self._lines_box.removeWidget(row)
        self._lines_box.insertWidget(to, row)
        if focused is not None:
            focused.setFocus(Qt.FocusReason.OtherFocusReason)
        self._commit_dialogue()

    def _remove_row(self, row: DialogueRow) -> None:
        if row in self.rows:
            self.rows.remove(row)
            self._drop_row(row)
        self._commit_dialogue()

    def _drop_row(self, row: DialogueRow) -> None:
        """Take ``row`` out, hidden, and delete it later. It stays parented: a row added in this
        pass of the event loop has a show queued (the layout's), and a row without a parent
        would show as a window of its own (taking the activation, and the shortcuts with it).

        Its signals are blocked first: a row holding the focus says its editing finished as it
        is hidden, and the lines read then (the rows an undo is replacing, or a row just
        removed) were saved over the undo, or saved twice (two undo steps for one removal)."""
        row.blockSignals(True)
        self._lines_box.removeWidget(row)
        row.hide()  # hidden on purpose: the queued show leaves it hidden
        row.deleteLater()

    def dialogue(self) -> tuple[DialogueLine, ...]:
        """The lines with text (an empty line being written is not part of the story yet)."""
        return tuple(line for line in (row.line() for row in self.rows) if line.text)

    def _commit_dialogue(self) -> None:
        lines = self.dialogue()
        try:  # lines the document will refuse stay on screen to be fixed: not a save an undo took back
            check_story(replace(self.story, dialogue=lines), kept=self.story)
        except StoryFieldError:
            self._sent.pop("dialogue", None)
        else:
            self._sent["dialogue"] = lines
        self.dialogue_changed.emit(lines)  # the inspector drops what the turn already holds

    def _commit_text(self, box: QPlainTextEdit, name: str) -> None:
        value = box.toPlainText().strip()
        if value == getattr(self.story, name):
            return  # nothing new (leaving a box, or an undo shown in it, saves nothing)
        self._sent[name] = value
        if name == "narration":
            self._narration_timer.stop()
            self.narration_changed.emit(value)
        else:
            self._notes_timer.stop()
            self.shot_notes_changed.emit(value)

    def _commit_typed(self, box: QPlainTextEdit, name: str, timer: QTimer) -> None:
        """Leaving a box saves what was typed there since its last save (its debounce still
        waiting). Nothing typed since, nothing is sent again: a refused text (a pasted tab, say)
        would be refused once more, a second warning for one mistake, as soon as the first
        warning took the focus from the box."""
        if timer.isActive():
            self._commit_text(box, name)

    def _typed_duration(self) -> float | None:
        value = self.duration.value()
        return None if value <= 0.0 else round(value, 3)

    def _refuse_duration(self, typed: str) -> None:
        self.duration_note.setText(duration_refusal(typed, self._typed_duration()))  # not yet reverted
        self.duration_note.show()

    def _commit_duration(self) -> None:
        """Save a duration the author changed (leaving the box unchanged keeps the turn's own,
        which may have more decimals than the box shows)."""
        if self.duration.value() == self._duration_shown:
            return
        self._duration_shown = self.duration.value()
        duration = self._typed_duration()
        self._sent["duration"] = duration
        self.duration_changed.emit(duration)

    def holds_typing(self) -> bool:
        """Whether narration or shot notes wait for their save, or the dialogue lines differ
        from the story shown."""
        return self._narration_timer.isActive() or self._notes_timer.isActive() or \
            self.dialogue() != self.story.dialogue

    def commit_pending(self, unfinished: bool = True) -> None:
        """Commit text waiting for its debounce and, with ``unfinished``, a dialogue line and a
        duration being typed (before the selection changes: a toolbar button or a menu takes
        no focus, so no field has said that its editing finished)."""
        if self._narration_timer.isActive():
            self._commit_text(self.narration, "narration")
        if self._notes_timer.isActive():
            self._commit_text(self.shot_notes, "shot_notes")
        if not unfinished:
            return
        if self.dialogue() != self.story.dialogue:
            self._commit_dialogue()
        if self.duration.hasFocus():  # typed, not yet left: read as leaving the box would
            self.duration.check_typed()
            self.duration.interpretText()
        self._commit_duration()
