"""Takes made by re-rolling one turn in the window, for the tests of the windows that show
several takes of a turn side by side."""

from __future__ import annotations

from typing import Any

JOB_TIMEOUT_MS = 120_000


def done_with_clips(session: Any, node_id: str) -> list[Any]:
    """The turn's finished takes that have a clip."""
    return [t for t in session.project.tree.takes_of(node_id) if t.clip_path and t.status.value == "done"]


def reroll_until(workspace: Any, session: Any, qtbot: Any, node_id: str, count: int) -> None:
    """Re-roll turn ``node_id`` until it has ``count`` finished takes with clips (each re-roll
    one more), and let the window take them in."""
    for _ in range(count - len(done_with_clips(session, node_id))):
        workspace.reroll(node_id)
    qtbot.waitUntil(lambda: len(done_with_clips(session, node_id)) == count, timeout=JOB_TIMEOUT_MS)
    session.settle()


def leaf_with_two_takes(make_window: Any, sample_project: Any, qtbot: Any) -> tuple[Any, Any, str, Any]:
    """A window on the sample with its first branch's last turn selected and re-rolled to two
    finished takes: (workspace, session, that turn's id, the take not selected)."""
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    reroll_until(ws, session, qtbot, leaf, 2)
    selected = session.project.tree.node(leaf).selected_take_id
    other = next(t for t in done_with_clips(session, leaf) if t.id != selected)
    return ws, session, leaf, other
