"""In a project opened read-only (another process is changing it), the line above the
instruction fields says why nothing can be changed and what to do (it invited "Edit this turn's
instruction; Generate makes a new take"), on a turn and at the start alike, and every editor of
the inspector (fields, story, notes, the start's state, the takes' count) is for reading only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QPlainTextEdit

HOLD = """
import sys
from studio.storage import Project
with Project.open(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_the_inspector_of_a_read_only_project_says_why(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(sample_project)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        window = make_window()
        assert window.open_project(sample_project), window.last_error
        assert window.session.read_only is not None
        ws = window.workspace
        tree = window.session.project.tree
        turn = tree.child_ids(tree.root_id)[0]
        for node_id in (turn, tree.root_id):
            ws.select(node_id, center=False)
            inspector = ws.inspector
            mode = inspector.editor.mode_label.text()
            assert mode.startswith("Read-only: sample.kamishibai is being changed by"), mode
            assert "Save a copy" in mode and "Generate makes a new take" not in mode, mode
            editable = [box.accessibleName() or type(box).__name__
                        for kind in (QLineEdit, QPlainTextEdit, QAbstractSpinBox)
                        for box in inspector.findChildren(kind)
                        if box.isVisibleTo(inspector) and box.isEnabled() and not box.isReadOnly()
                        and not (isinstance(box, QLineEdit) and isinstance(box.parent(), QAbstractSpinBox))]
            assert not editable, (node_id, editable)
        window.close_project("cancel")
    finally:
        holder.communicate("", timeout=60)
