"""Ctrl+F: find turns whose instruction contains the text; highlight them and jump between them."""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from studio.core.model import Node
from studio.core.tree import StoryTree
from studio.ui.icons import icon


def folded(text: str) -> str:
    """``text`` as Find compares it: NFKC-normalised, casefolded, every run of white space one
    space. The same words then match however they were typed or pasted: a kana with its
    voicing mark as one character or two (が, か + U+3099), full-width letters from a Japanese
    input method (Ｑｉｑｉ), ß and SS, words that a line break or a tab separates in text
    pasted into the Find field (it keeps them) or two spaces typed between them."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def searched_text(node: Node) -> str:
    """What Find looks in: the instruction, the notes and the story fields (narration, shot
    notes, dialogue with its speakers), :func:`folded`."""
    story = node.story
    parts = [node.instruction.raw, node.notes, story.narration, story.shot_notes,
             *(f"{line.speaker}: {line.text}" for line in story.dialogue)]
    return folded("\n".join(parts))


_ACCENTED_SCRIPTS = ("LATIN ", "GREEK ", "CYRILLIC ")
"""Scripts whose letters' accents Find may ignore: in Japanese, a voicing mark makes another
kana (か, が), which a search for one must not find for the other."""


def without_accents(text: str) -> str:
    """``text`` with the accents of Latin, Greek and Cyrillic letters taken off (café: cafe)."""
    kept: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFD", text):
        if unicodedata.combining(char):
            if not unicodedata.name(base, "").startswith(_ACCENTED_SCRIPTS):
                kept.append(char)
            continue
        base = char
        kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def find_matches(tree: StoryTree, query: str, order: list[str]) -> list[str]:
    """Node ids whose text (:func:`searched_text`) contains ``query``, in ``order`` (layout order).
    A query typed without accents finds the words with or without them ("cafe": café and
    cafe), as most find boxes do; one with an accent finds only that spelling."""
    needle = folded(query.strip())
    if not needle:
        return []
    plain = without_accents(needle) == needle

    def text_of(node: Node) -> str:
        text = searched_text(node)
        return without_accents(text) if plain else text

    return [node_id for node_id in order if node_id in tree.nodes and needle in text_of(tree.nodes[node_id])]


class SearchBar(QWidget):
    query_changed = Signal(str)
    step = Signal(int)  # +1 next, -1 previous
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchBar")
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText("Find in instructions, notes, narration and dialogue…")
        self.edit.setClearButtonEnabled(True)
        self.edit.setAccessibleName("Find")
        self.edit.textChanged.connect(self.query_changed.emit)
        self.count = QLabel("", self)
        self.count.setObjectName("dimLabel")
        prev_button = QToolButton(self)
        prev_button.setIcon(icon("up"))
        prev_button.setToolTip("Previous match (Shift+Enter)")
        prev_button.setAccessibleName("Previous match")
        prev_button.clicked.connect(lambda: self.step.emit(-1))
        next_button = QToolButton(self)
        next_button.setIcon(icon("down"))
        next_button.setToolTip("Next match (Enter)")
        next_button.setAccessibleName("Next match")
        next_button.clicked.connect(lambda: self.step.emit(1))
        close = QToolButton(self)
        close.setIcon(icon("cancel"))
        close.setToolTip("Close (Esc)")
        close.setAccessibleName("Close find")
        close.clicked.connect(self.close_bar)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        search_icon = QLabel(self)
        search_icon.setPixmap(icon("search").pixmap(16, 16))
        layout.addWidget(search_icon)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.count)
        layout.addWidget(prev_button)
        layout.addWidget(next_button)
        layout.addWidget(close)
        self.edit.installEventFilter(self)

    def open_bar(self) -> None:
        self.show()
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.closed.emit()

    def set_count(self, index: int, total: int) -> None:
        if not self.edit.text().strip():
            self.count.setText("")
        elif total == 0:
            self.count.setText("no matches")
        elif index < 0:  # the selected turn is not one of them (Enter goes to the first)
            self.count.setText(f"{total} match" if total == 1 else f"{total} matches")
        else:
            self.count.setText(f"{index + 1} of {total}")

    def eventFilter(self, watched, event) -> bool:  # type: ignore[no-untyped-def]  # noqa: N802
        if (watched is self.edit and isinstance(event, QKeyEvent) and event.type() == QKeyEvent.Type.ShortcutOverride
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape)):
            event.accept()  # these keys belong to the search field, not to the story's shortcuts
            return True
        if watched is self.edit and isinstance(event, QKeyEvent) and event.type() == QKeyEvent.Type.KeyPress:
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                shift = event.modifiers() & Qt.KeyboardModifier.ShiftModifier
                self.step.emit(-1 if shift else 1)
                return True
            if event.key() == Qt.Key.Key_Escape:
                self.close_bar()
                return True
        return super().eventFilter(watched, event)
