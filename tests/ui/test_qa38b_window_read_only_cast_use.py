"""On a project opened read-only, a character or place used from the Cast & world dock is
refused with the read-only reason in the status bar; the inspector's boxes, which could not be
saved, stay as they were. Before, the name went into the Character (Background) box anyway.

The read-only disk is simulated as in test_readonly_window_disk (see its ``read_only_disk``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget

from tests.ui.test_readonly_window_disk import DISK_LINE, project_with_takes, read_only_disk


def _use(qtbot: Any, window: Any, names: QListWidget) -> str:
    """Enter on the first name of ``names`` (a list of the cast dock): its "use"; the name."""
    window.go_to_dock(window.cast_dock)
    names.setCurrentRow(0)
    names.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(names.hasFocus, timeout=5000)
    qtbot.keyClick(names, Qt.Key.Key_Return)
    item = names.item(0)
    assert item is not None
    return str(item.text())


def test_using_the_cast_on_a_read_only_project_is_refused_in_the_status_bar(
        make_window, sample_project: Path, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    window, leaf = project_with_takes(make_window, sample_project, qtbot)
    read_only_disk(monkeypatch, sample_project)
    assert window.open_project(sample_project), window.last_error
    ws = window.workspace
    assert ws.read_only is not None
    ws.select(leaf, center=False)
    editor = ws.inspector.editor
    before = editor.field_texts()
    errors: list[object] = []
    ws.error.connect(errors.append)
    assert ws.cast.characters.count() and ws.cast.locations.count(), "the sample has a cast and places"

    for names, what in ((ws.cast.characters, "character"), (ws.cast.locations, "place")):
        window.status_label.setText("")
        _use(qtbot, window, names)
        said = window.status_label.text()
        assert f"Can't use a {what} in the instruction" in said, said
        assert DISK_LINE.removeprefix("Read-only: ") in said, said
        assert editor.field_texts() == before, "a box was filled that can't be saved"
    assert not errors, "said in the status bar, not in a box"


def test_using_the_cast_on_an_editable_project_fills_the_boxes(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    ws.select(ws.tree.child_ids(ws.tree.root_id)[0])
    editor = ws.inspector.editor
    editor.character.clear()
    editor.background.clear()
    name = _use(qtbot, window, ws.cast.characters)
    assert editor.character.text() == name
    place = _use(qtbot, window, ws.cast.locations)
    assert editor.background.text().startswith(place)
