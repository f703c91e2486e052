"""What the window says when an export finishes with notes.

An export's notes are written for the command line as well (`kamishibai export` prints
them), so some say what to do with a command. The window says the same in its own words,
and keeps the status bar to one short line: the notes, a few sentences each, are shown in a
box of their own (a status bar of 350 characters was cut off at the window's edge).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from studio.ui.dialogs.export_dialog import in_dialog_words


def window_hints() -> dict[str, str]:
    """Each command-line hint an export note may hold, and what the window says in its place
    (the export's modules are imported only once an export has finished)."""
    from studio.export.api import MISSING_CLIPS_LISTED
    from studio.export.subtitles import SHORTENED_CAPTIONS_HINT

    return {SHORTENED_CAPTIONS_HINT: "to show all of it, select the turn and lengthen its Duration in the "
                                     "inspector's Story section, or shorten its text",
            MISSING_CLIPS_LISTED: "the story's cards say \"Clip missing\" where a clip is gone; R re-rolls the "
                                  "selected turn"}


def note_in_window_words(note: str) -> str:
    """``note`` as the window says it: its command-line hints in the window's words, the
    command's options by the export dialog's fields, turns named without their node ids,
    begun with a capital and ended with a full stop."""
    from studio.ui.clip_presence import without_node_ids

    for hint, words in window_hints().items():
        note = note.replace(hint, words)
    note = without_node_ids(in_dialog_words(note)).strip().rstrip(".")
    return f"{note[:1].upper()}{note[1:]}." if note else ""


@dataclass(frozen=True)
class FinishedExport:
    """What the window says of a finished export: one status line, and the notes in full."""

    status: str
    notes: tuple[str, ...]


def finished_export(written: str, notes: tuple[str, ...] | list[str]) -> FinishedExport:
    """The window's words for an export that wrote ``written`` (the files, as the status bar
    names them) with the export's ``notes``."""
    shown = tuple(note for note in (note_in_window_words(note) for note in notes) if note)
    if not shown:
        return FinishedExport(f"Export finished: {written}", ())
    count = "a note" if len(shown) == 1 else f"{len(shown)} notes"
    return FinishedExport(f"Export finished: {written}, with {count} (shown in its own window).", shown)


def show_export_notes(parent: QWidget, written: str, finished: FinishedExport) -> QMessageBox:
    """A box (not modal: the window goes on) saying what the export wrote and its notes in
    full, one paragraph each; closing it deletes it."""
    box = QMessageBox(QMessageBox.Icon.Information, "Export finished", f"The export wrote {written}.",
                      QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("exportNotes")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText("\n\n".join(finished.notes))
    box.setModal(False)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    box.show()
    return box
