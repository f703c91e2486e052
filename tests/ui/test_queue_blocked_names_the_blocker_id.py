"""The queue panel: a job waiting for an interrupted one names that job by its short id as
well as its title (two jobs for one turn have the same title, so the title alone could not
say which one to retry)."""

from __future__ import annotations

from pathlib import Path


def test_a_waiting_job_names_its_blocker_by_id(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.core.jobs import Job, JobKind, JobStatus
    from studio.storage import Project
    from studio.storage.job_store import JobStore

    with Project.open(sample_project) as project:
        tree = project.tree
        turn = tree.leaves_under(tree.root_id)[0].id
        first = Job(id="e93962664a", kind=JobKind.GENERATE, node_id=turn, engine="sketch",
                    status=JobStatus.INTERRUPTED, sequence=1)
        twin = Job(id="0a0a0a0a0a", kind=JobKind.GENERATE, node_id=turn, engine="sketch",
                   status=JobStatus.INTERRUPTED, sequence=2)
        waiting = Job(id="b71c0ffee0", kind=JobKind.GENERATE, node_id=turn, engine="sketch",
                      depends_on=first.id, sequence=3)
        JobStore(project.database).save(first, twin, waiting)
    window = make_window(sample_project)
    panel = window.workspace.queue
    qtbot.waitUntil(lambda: "b71c0ffee0" in panel._items, timeout=10_000)
    item = panel._items["b71c0ffee0"]
    assert item.text(1) == "blocked"
    tip = item.toolTip(0)
    assert "e93962664a" in tip and "0a0a0a0a0a" not in tip, tip
