"""Cancelling one job of a branch re-roll in the queue (Delete on "Re-roll turn 2") cancels
every job that continues from it: the queue asks first, naming them, and then says in one
line what it cancelled. It cancelled them without a question, and the status bar said
"Generation cancelled: Cancelled: the turn it continues from was not generated (that job
was cancelled)." of the last of them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from .conftest import fake_engine_window, generate_first_branch


def _continuing_from(job_id: str, jobs: list) -> list:  # type: ignore[type-arg]
    """The jobs that wait for ``job_id``, directly or through one another."""
    found: list = []  # type: ignore[type-arg]
    reached = {job_id}
    for _ in jobs:
        for job in jobs:
            if job.depends_on in reached and job.id not in reached:
                reached.add(job.id)
                found.append(job)
    return found


def test_delete_on_a_job_others_continue_from_asks_then_says_what_it_cancelled(
        make_window, settings, sample_project: Path, registry, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    leaf = generate_first_branch(window, qtbot)
    tree = window.session.project.tree
    branch = [node.id for node in tree.path_to(leaf)][1:]  # the turns, the start left out
    assert len(branch) >= 4
    script.step_sleep = 1.0  # the first re-roll runs for seconds: the others wait in the queue
    window.workspace.select(branch[0], center=False)
    window.actions_.reroll_branch.trigger()
    window.session.settle()
    qtbot.waitUntil(lambda: any(j.status.value == "running" for j in window.session.active_jobs()), timeout=30_000)
    panel = window.workspace.queue
    jobs = {job.node_id: job for job in window.session.active_jobs()}
    second, last = jobs[branch[1]], jobs[branch[-1]]
    following = _continuing_from(second.id, list(jobs.values()))
    assert {job.node_id for job in following} >= set(branch[2:])
    after = len(following)
    asked: list[tuple[str, str]] = []
    answer = [False]

    def confirm(title: str, text: str) -> bool:
        asked.append((title, text))
        return answer[0]

    window.workspace.confirm = confirm

    def press_delete_on(job_id: str) -> None:
        def selected() -> bool:
            panel.select_jobs([job_id])  # once the list has its line
            return panel.selected_job_ids() == [job_id]

        qtbot.waitUntil(selected, timeout=5_000)
        panel.list.setFocus()
        qtbot.waitUntil(panel.list.hasFocus, timeout=5_000)  # Delete elsewhere deletes the selected turn
        QTest.keyClick(panel.list, Qt.Key.Key_Delete)
        window.session.settle()
    qtbot.waitUntil(lambda: second.id in [j.id for j in panel.jobs()],
                    timeout=5_000)

    # No: nothing is cancelled
    press_delete_on(second.id)
    assert len(asked) == 1
    assert asked[0][1].startswith(f"Cancel the re-roll of turn 2 and the {after} jobs that continue from it?"), asked
    ours = {job.id for job in jobs.values()}
    assert {job.status.value for job in window.session.service.jobs(include_finished=True)
            if job.id in ours} - {"running"} == {"queued"}, "nothing cancelled after No"

    # Yes: the job and those after it, in one line
    answer[0] = True
    press_delete_on(second.id)
    expected = f"Cancelled {after + 1} jobs: turn 2 and the {after} after it."
    qtbot.waitUntil(lambda: window.status_text() == expected, timeout=5_000)
    statuses = {job.node_id: job.status.value for job in window.session.service.jobs(include_finished=True)
                if job.id in {j.id for j in jobs.values()}}
    assert {statuses[job.node_id] for job in [second, *following]} == {"cancelled"}
    assert statuses[branch[0]] == "running"
    assert list(statuses.values()).count("cancelled") == after + 1, "only those"
    qtbot.wait(1_000)  # the jobs' own events reach the window after the panel's line: they add nothing
    assert window.status_text() == expected
    assert len(asked) == 2

    # a job no other continues from is cancelled without a question, as before
    assert last.id != second.id
    window.workspace.select(branch[-1], center=False)
    window.actions_.reroll.trigger()
    window.session.settle()
    lone = next(job for job in window.session.active_jobs() if job.node_id == branch[-1])
    qtbot.waitUntil(lambda: lone.id in [j.id for j in panel.jobs()], timeout=5_000)
    press_delete_on(lone.id)
    qtbot.waitUntil(lambda: window.status_text() == "Generation cancelled.", timeout=5_000)
    assert len(asked) == 2
