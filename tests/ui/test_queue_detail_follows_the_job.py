"""The line under the queue follows the selected job (QA: a job selected while it was queued
failed, and the line still read "Generate turn 1 · engine … · seed …" instead of the failure
and its hint until another job was clicked and this one again)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def test_a_selected_job_that_fails_says_why(make_window, sample_project: Path, qtbot, settings,  # type: ignore[no-untyped-def]
                                            registry) -> None:
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    service = window.session.service
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    script.fail_on.add(tree.node(first).instruction.raw)
    service.pause()  # the job waits while it is selected
    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() == 1)
    job_id = service.jobs()[0].id
    ws.queue.select_job(job_id)
    assert "seed" in ws.queue.detail.text()
    service.resume()
    qtbot.waitUntil(lambda: service.job(job_id).status.value == "failed", timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: "Failed:" in ws.queue.detail.text(), timeout=5000)
    assert "the fake engine was told to fail" in ws.queue.detail.text()
    assert ws.queue.selected_job_id() == job_id


def test_the_line_empties_when_the_selected_job_is_cleared(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    service = window.session.service
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first)
    window.actions_.reroll.trigger()
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() == 1)
    job_id = service.jobs(include_finished=True)[0].id
    ws.queue.select_job(job_id)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)
    ws.queue.clear_finished()
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() == 0)
    assert ws.queue.detail.text() == ""
