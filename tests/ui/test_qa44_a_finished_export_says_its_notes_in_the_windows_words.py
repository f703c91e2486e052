"""A window export whose captions were cut for time ends with one short status line; its
notes are shown in full in a box of their own, in the window's words: what to do in the
window (the turn's Duration in the Story section), never the command line's syntax (the
status bar said some 350 characters, `kamishibai story PROJECT NODE --duration SECONDS`
among them)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from .conftest import generate_first_branch

JOB_TIMEOUT_MS = 120_000
LONG = "Qiqi walks slowly along the harbour wall, counting the boats and waving at the fishermen. " * 12


def test_the_notes_of_a_finished_export_are_in_a_box_in_the_windows_words(make_window, sample_project: Path, qtbot,
                                                                          tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.core.commands import SetNarration
    from studio.export.options import ExportOptions

    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    window.session.project.apply(SetNarration(leaf, LONG))  # the last turn's text is more than its time shows
    number = window.session.project.tree.depth(leaf)
    out = tmp_path / "out" / "episode.srt"
    queued: list[str] = []
    ws.queue_export(out, ExportOptions(), "srt", then=queued.append)
    qtbot.waitUntil(lambda: bool(queued) or window.last_error is not None, timeout=JOB_TIMEOUT_MS)
    assert queued, window.last_error
    qtbot.waitUntil(lambda: window.status_label.text().startswith("Export finished"), timeout=JOB_TIMEOUT_MS)
    status = window.status_label.text()
    assert status == f"Export finished: {out}, with a note (shown in its own window)."
    box = ws.export_notes_box
    assert isinstance(box, QMessageBox) and box.isVisible() and not box.isModal()
    assert box.text() == f"The export wrote {out}."
    note = box.informativeText()
    named = note.split(" ha", 1)[0]  # "Turn 5's caption" or "Turns 3 and 5" (the sample's own may be cut too)
    assert named.startswith("Turn") and str(number) in named.replace("'s", " ").split()
    assert "more text than can be read in" in note
    assert "lengthen its Duration in the inspector's Story section" in note
    assert "kamishibai" not in note and "--duration" not in note and "`" not in note
    box.close()
