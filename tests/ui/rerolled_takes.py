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
