"""The understanding chips under the instruction; clicking one offers the engine's words.

Choosing a word rewrites that field of the instruction (an undoable "Edit instruction" in
the workspace); the next take is made from the corrected line.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from studio.core.graphemes import scripts_in
from studio.core.instruction import Instruction, time_choices
from studio.core.model import Take
from studio.ui.inspector.flow_layout import FlowLayout
from studio.ui.inspector.instruction_editor import compose_instruction, instruction_language
from studio.ui.inspector.understanding import Chip, ChipField, suggestions, time_choices_note, understanding_chips
from studio.ui.inspector.vocabulary import Vocabulary

_QUOTED = re.compile(r"'([^']+)'")
CHIP_MAX_CHARACTERS = 60
"""The longest chip label; a longer one ends with "…" (its tooltip has it whole)."""
CHIP_MIN_CHARACTERS = 8
"""A chip never narrows below this many of its letters (and "…")."""
LEVEL_ADVERBS = ("very gently", "gently", "slowly", "calmly", "normally", "quickly", "energetically",
                 "very quickly")


def as_label(text: str) -> str:
    """``text`` for a button's or a menu item's label, shown as written: a single "&" (a place
    called "Tom & Jerry's café") would otherwise be read as a keyboard mnemonic, dropped from
    the label and its next letter underlined and bound to Alt+letter."""
    return text.replace("&", "&&")


def turn_language(instruction: Instruction) -> str:
    """The language ``instruction`` is written in, a key of
    :data:`~studio.ui.inspector.instruction_editor.LINE_KEYS`: '' for English, 'ja', 'zh', or
    'zh-hant' for Chinese written in Traditional characters (說, 園, 時...)."""
    from studio.core.sentence import TRADITIONAL_ONLY_CHARS

    language = instruction_language(instruction)
    if language == "zh" and any(char in TRADITIONAL_ONLY_CHARS for char in instruction.raw):
        return "zh-hant"
    return language


def replace_field(instruction: Instruction, field: ChipField, value: str) -> str:
    """The instruction's line with ``field`` set to ``value`` (other fields kept; a Japanese or
    Chinese turn stays in its language, with its language's field names)."""
    extra = "; ".join(f"{k.capitalize()}: {v}" for k, v in instruction.extra)
    free = "; ".join(p for p in (instruction.free_text, extra) if p)
    character, adverb, motion = instruction.character, instruction.adverb, instruction.motion
    background, time, camera = instruction.background, instruction.time_of_day, instruction.camera
    if field is ChipField.CHARACTER:
        character = value
    elif field is ChipField.MOTION:
        motion = value
    elif field is ChipField.PLACE:
        background = value
    elif field is ChipField.TIME:
        time = value
    elif field is ChipField.CAMERA:
        camera = value
    elif field is ChipField.LEVEL:
        adverb = value
    language = instruction_language(instruction)
    # Japanese and Chinese write an adverb against its verb (ゆっくり歩く, 慢慢走)
    tight = bool(language) and not scripts_in(adverb) - {"kana", "han"}
    joined = ("" if tight else " ").join(p for p in (adverb, motion) if p)
    return compose_instruction(character, joined, background, time, camera, free, language=language)


def choices_for(field: ChipField, vocabulary: Vocabulary, language: str = "") -> list[str]:
    """The words offered for ``field`` of a turn written in ``language`` (see
    :func:`turn_language`): the engine's words in that language where it offers some, so that
    a word chosen keeps the turn in its language."""
    words = vocabulary.in_language(language)
    if field is ChipField.CHARACTER:
        return list(words.characters)
    if field is ChipField.MOTION:
        return list(words.motions)
    if field is ChipField.PLACE:
        return list(words.backgrounds)
    if field is ChipField.TIME:
        return list(time_choices(language) or time_choices())
    if field is ChipField.CAMERA:
        return list(words.cameras)
    if field is ChipField.LEVEL:
        if words is not vocabulary:
            return list(words.adverbs)
        return list(dict.fromkeys([*LEVEL_ADVERBS, *vocabulary.adverbs]))
    return []


class ChipButton(QToolButton):
    """A chip whose label ends with "…" where the row is narrower than the label.

    A tool button asks for the width of its whole label: a long warning ("the Motion field is 1,909
    characters long; only its first 400 ...") asked for more than a narrow inspector has, which
    then scrolled sideways and cut off the Generate button and the takes. This one asks for
    its whole label but makes do with a few letters; the label is cut to the width it gets,
    and its tooltip then shows it whole."""

    def __init__(self, text: str, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # a tool button's is Fixed
        self.full_text = text
        self._tip = tip
        self._shown = text[:CHIP_MAX_CHARACTERS - 1] + "…" if len(text) > CHIP_MAX_CHARACTERS else text
        self.setAccessibleName(text)  # read whole, however the label is cut
        self._show(self._shown)

    def _show(self, text: str) -> None:
        self.setText(as_label(text))
        cut = text != self.full_text and self.full_text.removeprefix("⚠ ") not in self._tip  # not said there
        self.setToolTip(f"{self.full_text}\n\n{self._tip}" if cut and self._tip else
                        self.full_text if cut else self._tip)

    def _padding(self) -> int:
        """The button's width beyond its label's."""
        return super().sizeHint().width() - self.fontMetrics().horizontalAdvance(self.text().replace("&&", "&"))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().sizeHint()
        return QSize(self._padding() + self.fontMetrics().horizontalAdvance(self._shown), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        least = self._shown[:CHIP_MIN_CHARACTERS] + ("…" if len(self._shown) > CHIP_MIN_CHARACTERS else "")
        width = self._padding() + self.fontMetrics().horizontalAdvance(least)
        return QSize(min(width, self.sizeHint().width()), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        room = self.width() - self._padding()
        self._show(self.fontMetrics().elidedText(self._shown, Qt.TextElideMode.ElideRight, room)
                   if self.fontMetrics().horizontalAdvance(self._shown) > room else self._shown)


class ChipsView(QWidget):
    """Chips for one turn; ``fix_requested`` carries the corrected instruction line."""

    fix_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.instruction = Instruction(raw="")
        self.vocabulary = Vocabulary()
        self.chips: list[Chip] = []
        self.buttons: list[QToolButton] = []
        self.empty = QLabel("What the engine understood appears here after a take.", self)
        self.empty.setObjectName("dimLabel")
        self.empty.setWordWrap(True)
        self._flow_host = QWidget(self)
        self._flow = FlowLayout(self._flow_host)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._flow_host)
        layout.addWidget(self.empty)
        self._key: tuple[object, ...] = ()
        self.typed_instruction: Callable[[], Instruction | None] = lambda: None
        """The instruction being typed for this turn and not saved yet (None when there is
        none): a chosen word is put into it, so that the typing is not thrown away."""

    def set_vocabulary(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary

    def set_turn(self, instruction: Instruction, take: Take | None) -> None:
        key = (instruction.raw, id(take))
        if key == self._key:
            return
        self._key = key
        self.instruction = instruction
        self.chips = understanding_chips(instruction, take)
        for button in self.buttons:  # hidden, not unparented: one added in this pass of the event
            self._flow.removeWidget(button)  # loop has a show queued, and would show as a window
            button.hide()
            button.deleteLater()
        self.buttons = []
        for chip in self.chips:
            button = ChipButton(chip.text, chip.tooltip, self._flow_host)
            button.setObjectName("chipWarning" if chip.warning else "chip")
            button.setAutoRaise(False)
            button.clicked.connect(lambda _c=False, c=chip, b=button: self._offer(c, b))
            self._flow.addWidget(button)
            self.buttons.append(button)
        self.empty.setVisible(not self.chips)
        self._flow_host.setVisible(bool(self.chips))
        self._flow.invalidate()
        self._flow_host.updateGeometry()

    @property
    def warning_count(self) -> int:
        return sum(chip.warning for chip in self.chips)

    def menu_for(self, chip: Chip) -> QMenu:
        """The words the engine knows for the chip's field, closest to the author's first."""
        menu = QMenu(self)
        # a word the instruction already says (its adverb kept) would change nothing: not offered
        language = turn_language(self.instruction)
        choices = [w for w in choices_for(chip.field, self.vocabulary, language) if w.lower() != chip.word.lower()
                   and replace_field(self.instruction, chip.field, w) != self.instruction.raw]
        shown_as = _QUOTED.findall(chip.text)[1:2] if chip.warning else []
        words = suggestions(chip.word, [*(w for w in shown_as if w in choices), *choices])
        if not words:
            action = menu.addAction("No words to offer for this")
            action.setEnabled(False)
            return menu
        title = menu.addAction(as_label(f"Replace '{chip.word}' with…" if chip.word else "Use…"))
        title.setEnabled(False)
        for word in words:
            label = time_choices_note(word) if chip.field is ChipField.TIME else word
            action = menu.addAction(as_label(label))
            action.setData(word)
            action.triggered.connect(lambda _c=False, w=word, f=chip.field: self.fix(f, w))
        return menu

    def fix(self, field: ChipField, word: str) -> None:
        """Ask for the turn's instruction with ``word`` in ``field``: the line being typed, if
        any (its other edits are kept), else the turn's own."""
        text = replace_field(self.typed_instruction() or self.instruction, field, word)
        if text and text != self.instruction.raw:
            self.fix_requested.emit(text)

    def _offer(self, chip: Chip, button: QToolButton) -> None:
        menu = self.menu_for(chip)
        menu.popup(button.mapToGlobal(button.rect().bottomLeft()))
