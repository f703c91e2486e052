"""The inspector shows a failed take's hint under its error (what to do about running out of
memory), read from the take: it is there when the job that failed is long forgotten."""

from __future__ import annotations

from pathlib import Path

from studio.worker.failures import OOM_HINT
from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def test_a_failed_takes_hint_is_shown_under_its_error(make_window, sample_project: Path, qtbot, settings,  # type: ignore[no-untyped-def]
                                                      registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    script.oom_on.add(tree.node(first).instruction.raw)
    ws.select(first)
    window.actions_.reroll.trigger()

    def failed() -> list:  # type: ignore[type-arg]
        return [t for t in window.session.project.tree.takes_of(first) if t.status.value == "failed"]

    qtbot.waitUntil(lambda: bool(failed()), timeout=TIMEOUT_MS)
    window.session.settle()
    window.session.service.clear_finished()  # the job is forgotten: the take alone says what to do
    [take] = failed()
    assert take.hint == OOM_HINT
    ws.select(first)
    qtbot.waitUntil(lambda: "ran out of memory" in ws.inspector.details.text(), timeout=TIMEOUT_MS)
    details = ws.inspector.details.text()
    assert "Hint: Try a smaller size or fewer frames" in details
