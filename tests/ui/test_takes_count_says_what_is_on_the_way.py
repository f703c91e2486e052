"""The inspector's takes count says how many takes of the turn are being made and queued
(Re-roll ×3 on a slow engine). It said "No takes yet" (or "1 take") and nothing more until
each take landed, as if the re-rolls had not been asked for."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import EditInstruction
from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def test_the_count_names_the_takes_being_made_and_queued(make_window, sample_project: Path, qtbot, settings,
                                                         registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.apply(EditInstruction(first, f"{tree.node(first).instruction.raw} [block]"))  # each take waits for release
    session.settle()
    ws.select(first, center=False)
    takes = ws.inspector.takes
    qtbot.waitUntil(lambda: takes.count_label.text() == "No takes yet")

    takes.reroll_count.setValue(3)
    takes.reroll_many_button.click()
    qtbot.waitUntil(script.started.is_set, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: takes.count_label.text() == "No takes yet · 1 being made, 2 queued", timeout=TIMEOUT_MS)

    script.release.set()
    qtbot.waitUntil(lambda: not session.active_jobs(), timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: takes.count_label.text() == "3 takes", timeout=TIMEOUT_MS)
