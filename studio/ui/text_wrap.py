"""Long words in word-wrapped labels.

A word-wrapped ``QLabel`` breaks lines only between words, and asks its layout for at least
the width of its longest word. One long word of the author's — a location named after its
image file (``IMG_20240513_142355_forest_background_final``), a file path in an error, a
character name without a space — then widened the whole inspector (or the queue) past its
dock: a sideways scroll bar appeared and the buttons on the right (Generate, the start state
boxes) were pushed out of sight. :func:`breakable` lets such a word wrap, without changing
how any ordinary text looks.
"""

from __future__ import annotations

import html
import re
import unicodedata

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QTextDocument
from PySide6.QtWidgets import QLabel, QMenu

from studio.core.graphemes import grapheme_clusters

ZERO_WIDTH_SPACE = "\u200b"
"""A line may break here; it draws nothing."""

WRAP_RUN = 20
"""Words longer than this get a break opportunity every this many characters (a word this
long is about 150 px in the inspector's type, far narrower than any dock)."""

_LONG_WORD = re.compile(rf"[^\s{ZERO_WIDTH_SPACE}]{{{WRAP_RUN + 1},}}")


def breakable(text: str) -> str:
    """``text`` with a zero-width space after about every :data:`WRAP_RUN` characters of a word
    longer than that (plain text: escape it for a rich-text label afterwards; the space needs no
    escaping). Shorter words are left as they are.

    A space goes only between the characters a reader sees, never inside one: one put between
    an emoji and its zero-width joiner, or a letter and its accent, split a family emoji into
    its people and left a dotted circle under a lone accent."""

    def split(match: re.Match[str]) -> str:
        runs: list[str] = []
        run = ""
        for cluster in grapheme_clusters(match.group(0)):
            if len(run) >= WRAP_RUN:
                runs.append(run)
                run = ""
            run += cluster
        runs.append(run)
        return ZERO_WIDTH_SPACE.join(runs)

    return _LONG_WORD.sub(split, text)


_ISOLATE_STARTS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
_ISOLATE_END = "\u2069"  # PDI


def starts_right_to_left(text: str) -> bool:
    """Whether ``text`` reads from right to left as a paragraph of its own: its first strongly
    directional letter (outside isolates) is Hebrew, Arabic or the like (Unicode's rules P2
    and P3). A line of it on a card starts at the right, as it does in a text box."""
    depth = 0
    for char in text:
        if char in _ISOLATE_STARTS:
            depth += 1
        elif char == _ISOLATE_END:
            depth = max(0, depth - 1)
        elif depth == 0:
            kind = unicodedata.bidirectional(char)
            if kind in ("R", "AL"):
                return True
            if kind == "L":
                return False
    return False


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` as written. Qt reads a tooltip as rich text when it looks
    like markup, so an instruction or an error holding ``<b>`` was drawn bold with its tags gone
    (and ``&amp;`` as ``&``); this one is always rich text, escaped, with its line breaks, and
    its long words can wrap (:func:`breakable`) so the tip never grows wider than the screen."""
    if not text:
        return ""
    lines = html.escape(breakable(text), quote=False).split("\n")
    return "<p style='white-space:pre-wrap'>" + "<br>".join(lines) + "</p>"


def unbroken(text: str) -> str:
    """``text`` without the break opportunities :func:`breakable` added (what the label says)."""
    return text.replace(ZERO_WIDTH_SPACE, "")


class _CleanCopy(QObject):
    """Ctrl+C and the context menu's Copy on a selectable label put the selection on the
    clipboard without :func:`breakable`'s break opportunities: a path copied from an error
    must paste as the path."""

    def __init__(self, label: QLabel) -> None:
        super().__init__(label)
        self.label = label
        label.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        label.customContextMenuRequested.connect(self._menu)
        label.installEventFilter(self)

    def copy(self) -> None:
        selected = self.label.selectedText()
        if selected:
            QGuiApplication.clipboard().setText(unbroken(selected))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.label and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.matches(QKeySequence.StandardKey.Copy):
            self.copy()
            return True
        return False

    def _select_all(self) -> None:
        text = self.label.text()
        if self.label.textFormat() is not Qt.TextFormat.PlainText:  # rich text: select what it shows
            shown = QTextDocument()
            shown.setHtml(text)
            text = shown.toPlainText()
        self.label.setSelection(0, len(text))

    def _menu(self, at: QPoint) -> None:
        menu = QMenu(self.label)
        copy = menu.addAction("Copy", self.copy)
        copy.setEnabled(self.label.hasSelectedText())
        menu.addAction("Select All", self._select_all)
        menu.exec(self.label.mapToGlobal(at))


def copy_without_breaks(label: QLabel) -> None:
    """Make ``label`` (selectable, showing :func:`breakable` text) copy what it says."""
    _CleanCopy(label)
