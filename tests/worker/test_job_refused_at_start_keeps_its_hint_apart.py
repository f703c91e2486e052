"""A job the database refuses to start (another program holds the file, a read-only
``project.db``, a full disk) fails with its error and its hint kept apart, as every other
failure keeps them. QA: `run-queue` on a project whose database could not be written printed
"failed: The job could not be started: Can't save the change: ...⏎  hint: ..." on one line,
the hint glued into the error, and the failure's event (which `run-queue` prints) had none."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

from studio.core.commands import AddTurn
from studio.storage import Project
from studio.worker import GenerationService, JobEvent, JobStatus

TEXT = "Character: Qiqi; Motion: run; Background: day town"


def test_a_claim_refused_by_the_database_keeps_the_hint_apart(
        project: Project, make_service: Callable[..., GenerationService]) -> None:
    project.apply(AddTurn(project.tree.root_id, TEXT))
    turn = project.tree.children(project.tree.root_id)[-1].id
    service = make_service(start=False)
    job = service.reroll(turn)
    ended = threading.Event()
    heard: list[JobEvent] = []

    def listen(event: JobEvent) -> None:
        if event.job_id == job and event.kind.value in ("failed", "finished", "cancelled", "interrupted"):
            heard.append(event)
            ended.set()

    service.subscribe(listen)
    other = sqlite3.connect(project.path / "project.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")  # another program (an SQLite browser) holds the file for writing
    try:
        service.start()
        assert ended.wait(60), "the job never ended"
    finally:
        other.execute("ROLLBACK")
        other.close()
    failed = service.job(job)
    assert failed.status is JobStatus.FAILED
    assert failed.error.startswith("The job could not be started: "), failed.error
    assert "locked" in failed.error
    assert "\n" not in failed.error and "hint:" not in failed.error, failed.error
    assert failed.hint.startswith("Close other programs that use this file"), failed.hint
    assert [(e.kind.value, e.message, e.hint) for e in heard] == [("failed", failed.error, failed.hint)]
