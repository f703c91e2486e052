"""A window that opened a project read-only, because another program holds it for writing,
reads it again when that program changes it (the window looks every 2 s): a branch deleted
there goes from the window too, which no longer offers to play or export a story that is
gone. It kept showing the story as it was when it opened.

The holder is a real second process holding the project's real writer lock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HOLD_AND_DELETE = """
import sys
from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.storage.lock import set_process_label
set_process_label("kamishibai delete")
with Project.open(sys.argv[1]) as project:
    print("held", flush=True)
    sys.stdin.readline()
    project.apply(DeleteSubtree(sys.argv[2]))
    print("deleted", flush=True)
    sys.stdin.read()
"""


def test_a_branch_deleted_by_the_holder_goes_from_the_read_only_window(
        make_window, sample_project: Path, qtbot) -> None:
    from studio.storage import Project

    with Project.open(sample_project, read_only=True) as opened:
        tree = opened.tree
        doomed = tree.leaves_under(tree.root_id)[-1].id
        kept = len(tree.nodes) - 1 - sum(1 for _ in tree.descendants(doomed))
    holder = subprocess.Popen([sys.executable, "-c", HOLD_AND_DELETE, str(sample_project), doomed],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        window = make_window()
        assert window.open_project(sample_project), window.last_error
        assert window.session.read_only is not None
        assert doomed in window.workspace.scene.cells
        window._check_lock_released()  # nothing changed yet: the window stays as it is
        assert doomed in window.session.project.tree.nodes

        assert holder.stdin is not None
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "deleted"
        window._check_lock_released()  # what the 2 s timer does
        session = window.session
        assert session is not None and session.read_only is not None, "still read-only: it is still held"
        assert doomed not in session.project.tree.nodes and len(session.project.tree.nodes) == kept
        assert doomed not in window.workspace.scene.cells
        assert "was changed where it is open for editing" in window.status_text(), window.status_text()
        assert "Read-only" in window.workspace.read_only_bar.label.text()
    finally:
        holder.communicate("", timeout=60)
