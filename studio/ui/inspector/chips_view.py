"""The understanding chips under the instruction; clicking one offers the engine's words.

Choosing a word rewrites that field of the instruction (an undoable "Edit instruction" in
the workspace); the next take is made from the corrected line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QMenu, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from studio.core.graphemes import scripts_in
from studio.core.instruction import Instruction, time_choices
from studio.core.model import Take
from studio.ui.inspector.flow_layout import FlowLayout
from studio.ui.inspector.instruction_editor import (
    compose_instruction,
    korean_line,
    korean_time_and_place,
    time_in_language,
    turn_language,
)
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


_ADVERB_PARTICLES = ("地", "と")
"""What may join a Chinese or Japanese adverb to its verb (慢慢地走, ゆっくりと歩く)."""


def leading_adverb(motion: str, adverbs: Iterable[str], motions: Iterable[str] = ()) -> str:
    """The adverb of ``adverbs`` a Japanese or Chinese ``motion`` opens with, written against
    its verb (ゆっくり in ゆっくり走る), with a particle joining it (慢慢地); '' when it opens with
    none, when nothing follows it, or when the motion is itself one of ``motions`` (慢跑, jog,
    is no 慢 before 跑)."""
    text = motion.strip()
    if text in set(motions):
        return ""
    for adverb in sorted(set(adverbs), key=len, reverse=True):
        if not adverb or not text.startswith(adverb):
            continue
        rest = text[len(adverb):]
        particle = rest[:1] if rest[:1] in _ADVERB_PARTICLES else ""
        if rest[len(particle):].strip():
            return adverb + particle
    return ""


@dataclass(frozen=True, slots=True)
class _Fields:
    """A turn's fields as a chip's word rewrites them. ``opening``: the adverb of the turn's
    language that ``motion`` opens with, as written there (ゆっくり, 慢慢地, "천천히 "): kept
    when the motion is replaced (ゆっくり走る -> ゆっくり歩く), replaced by a level chosen."""

    character: str
    adverb: str
    motion: str
    background: str
    time: str
    camera: str
    opening: str = ""


Offer = Callable[[Vocabulary, Vocabulary, str], list[str]]
"""The words a field's menu offers: (the words of the turn's language, all the words, the language)."""
Replace = Callable[[_Fields, str], _Fields]
"""A turn's fields with a chosen word in one of them."""


def _words(name: str) -> Offer:
    """Offer the vocabulary's list ``name`` in the turn's language."""
    return lambda words, _vocabulary, _language: list(getattr(words, name))


def _times(_words: Vocabulary, _vocabulary: Vocabulary, language: str) -> list[str]:
    return list(time_choices(language) or time_choices())


def _levels(words: Vocabulary, vocabulary: Vocabulary, _language: str) -> list[str]:
    """The engine's adverbs of the turn's language; an English turn's (or one of a language
    the engine has no words in) come after the common ones."""
    if words is not vocabulary:
        return list(words.adverbs)
    return list(dict.fromkeys([*LEVEL_ADVERBS, *vocabulary.adverbs]))


def _setting(name: str) -> Replace:
    """Replace the field ``name`` with the word chosen."""
    return lambda fields, value: replace(fields, **{name: value})


def _motion(fields: _Fields, value: str) -> _Fields:
    return replace(fields, motion=fields.opening + value)


def _level(fields: _Fields, value: str) -> _Fields:
    """The adverb chosen replaces the one written in the motion too."""
    return replace(fields, adverb=value, motion=fields.motion.removeprefix(fields.opening))


@dataclass(frozen=True, slots=True)
class _FieldRule:
    offers: Offer
    replaces: Replace


_FIELD_RULES: dict[ChipField, _FieldRule] = {
    ChipField.CHARACTER: _FieldRule(_words("characters"), _setting("character")),
    ChipField.MOTION: _FieldRule(_words("motions"), _motion),
    ChipField.PLACE: _FieldRule(_words("backgrounds"), _setting("background")),
    ChipField.TIME: _FieldRule(_times, _setting("time")),
    ChipField.CAMERA: _FieldRule(_words("cameras"), _setting("camera")),
    ChipField.LEVEL: _FieldRule(_levels, _level),
}
"""What each chip's menu offers and how a word chosen in it rewrites the turn, in every language."""


def _read(instruction: Instruction, language: str, adverbs: Iterable[str], motions: Iterable[str]) -> _Fields:
    """An English, Japanese or Chinese turn's fields (the latter two may write an adverb
    against the verb, see :func:`leading_adverb`)."""
    opening = leading_adverb(instruction.motion, adverbs, motions) if language else ""
    return _Fields(instruction.character, instruction.adverb, instruction.motion, instruction.background,
                   instruction.time_of_day, instruction.camera, opening)


def _write(fields: _Fields, free: str, language: str) -> str:
    # Japanese and Chinese write an adverb against its verb (ゆっくり歩く, 慢慢走)
    tight = bool(language) and not scripts_in(fields.adverb) - {"kana", "han"}
    joined = ("" if tight else " ").join(p for p in (fields.adverb, fields.motion) if p)
    return compose_instruction(fields.character, joined, fields.background, fields.time, fields.camera, free,
                               language=language)


def _read_korean(instruction: Instruction, _language: str, adverbs: Iterable[str],
                 _motions: Iterable[str]) -> _Fields:
    """A Korean turn's fields: the time a field of its own (a time word opening the background
    is moved there first, so that a place chosen keeps it and a time chosen replaces it), and
    the adverb a word of the motion, before its verb with a space."""
    time, background = korean_time_and_place(instruction.background, instruction.time_of_day)
    motion = " ".join(p for p in (instruction.adverb, instruction.motion) if p)
    first, _, rest = motion.partition(" ")
    opening = f"{first} " if rest and first in set(adverbs) else ""
    return _Fields(instruction.character, "", motion, background, time, instruction.camera, opening)


def _write_korean(fields: _Fields, free: str, _language: str) -> str:
    """A Korean line, with Korean field names."""
    motion = " ".join(p for p in (fields.adverb, fields.motion) if p)
    return korean_line((fields.character, motion, fields.background, time_in_language(fields.time, "ko"),
                        fields.camera), free)


Read = Callable[[Instruction, str, Iterable[str], Iterable[str]], _Fields]
Write = Callable[[_Fields, str, str], str]
_LINES: dict[str, tuple[Read, Write]] = {"ko": (_read_korean, _write_korean)}
"""How a turn of a language is read into fields and written back, where it differs from the others'."""


def replace_field(instruction: Instruction, field: ChipField, value: str, *, names: Iterable[str] = (),
                  adverbs: Iterable[str] = (), motions: Iterable[str] = ()) -> str:
    """The instruction's line with ``field`` set to ``value`` (other fields kept; a Japanese,
    Chinese or Korean turn stays in its language, with its language's field names). ``names``:
    the cast's (see :func:`turn_language`); ``adverbs``: the adverbs of the turn's language the
    engine knows, and ``motions`` its motions: an adverb of them opening the motion is kept when
    the motion is replaced (ゆっくり走る -> ゆっくり歩く) and replaced by an adverb chosen."""
    extra = "; ".join(f"{k.capitalize()}: {v}" for k, v in instruction.extra)
    free = "; ".join(p for p in (instruction.free_text, extra) if p)
    language = turn_language(instruction, names)
    read, write = _LINES.get(language, (_read, _write))
    fields = read(instruction, language, adverbs, motions)
    rule = _FIELD_RULES.get(field)
    return write(rule.replaces(fields, value) if rule else fields, free, language)


def choices_for(field: ChipField, vocabulary: Vocabulary, language: str = "") -> list[str]:
    """The words offered for ``field`` of a turn written in ``language`` (see
    :func:`turn_language`): the engine's words in that language where it offers some, so that
    a word chosen keeps the turn in its language."""
    rule = _FIELD_RULES.get(field)
    return rule.offers(vocabulary.in_language(language), vocabulary, language) if rule else []


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
        self.read_only_reason: str | None = None
        """Why no word can be replaced (see :meth:`set_read_only`); None when one can."""
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

    def set_read_only(self, reason: str | None) -> None:
        """A chip still says what was understood, but its menu offers no replacement: it says
        ``reason`` instead (None: replacements are offered again)."""
        self.read_only_reason = reason

    @property
    def warning_count(self) -> int:
        return sum(chip.warning for chip in self.chips)

    def menu_for(self, chip: Chip) -> QMenu:
        """The words the engine knows for the chip's field, closest to the author's first."""
        menu = QMenu(self)
        if self.read_only_reason is not None:
            action = menu.addAction(as_label(f"Words can't be replaced. {self.read_only_reason}"))
            action.setEnabled(False)
            return menu
        # a word the instruction already says (its adverb kept) would change nothing: not offered
        language = turn_language(self.instruction, self.vocabulary.characters)
        choices = [w for w in choices_for(chip.field, self.vocabulary, language) if w.lower() != chip.word.lower()
                   and self._replaced(self.instruction, chip.field, w) != self.instruction.raw]
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
        if self.read_only_reason is not None:
            return
        text = self._replaced(self.typed_instruction() or self.instruction, field, word)
        if text and text != self.instruction.raw:
            self.fix_requested.emit(text)

    def _replaced(self, instruction: Instruction, field: ChipField, word: str) -> str:
        """:func:`replace_field` with the project's cast, and the adverbs and motions the engine
        offers in the turn's language."""
        language = turn_language(instruction, self.vocabulary.characters)
        words = self.vocabulary.in_language(language)
        return replace_field(instruction, field, word, names=self.vocabulary.characters,
                             adverbs=words.adverbs if language else (), motions=words.motions if language else ())

    def _offer(self, chip: Chip, button: QToolButton) -> None:
        menu = self.menu_for(chip)
        menu.popup(button.mapToGlobal(button.rect().bottomLeft()))
