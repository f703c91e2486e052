"""The queue's lines name turns as they are now (QA: after an edited instruction or a deleted
turn, a finished job's line still read "Generate turn 5 · Qiqi gently lies down…", the turn's
old action, or a turn that no longer exists, until the next job event)."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import EditInstruction
from tests.ui.conftest import generate_first_branch

JOB_TIMEOUT_MS = 120_000


def _line_of(ws, node_id: str) -> str:  # type: ignore[no-untyped-def]
    queue = ws.queue
    for job_id, item in queue._items.items():
        job = queue.service.job(job_id)
        if job.node_id == node_id:
            return str(item.text(0))
    raise AssertionError("no queue line for that turn")


def test_queue_lines_follow_edits_and_deletes(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    leaf = generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: "lies down" in _line_of(ws, leaf), timeout=5000)

    ws.apply(EditInstruction(leaf, "Character: Qiqi; Motion: jump; Background: night town."))
    session.settle()
    qtbot.waitUntil(lambda: "jumps" in _line_of(ws, leaf), timeout=5000)

    ws.select(leaf)
    window.actions_.delete.trigger()
    session.settle()
    qtbot.waitUntil(lambda: leaf not in session.project.tree.nodes, timeout=5000)
    qtbot.waitUntil(lambda: _line_of(ws, leaf).endswith("(deleted turn)"), timeout=5000)
    assert _line_of(ws, leaf).startswith("Generate")  # the user's word for it, not the service's "Fill"
