"""A job whose take was saved but whose end the database then refused (a full disk, a
file-size limit, another program holding the file) still ends. QA: under `ulimit -f`,
`kamishibai reroll` printed the failed take and then waited for good: the end was kept in
memory but never announced, so nothing waiting for the job heard of it. The row left
"running" is settled from the take when the project is opened again."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from studio.core.changes import ChangeSet, EntityKind
from studio.core.commands import AddTurn
from studio.storage import Project
from studio.worker import GenerationService, HostMode, JobEvent, JobStatus

from .fake_engine import FakeScript, fake_registry

TEXT = "Character: Qiqi; Motion: run; Background: day town"
ENDS = ("finished", "failed", "cancelled", "interrupted")


def _service(project: Project, script: FakeScript) -> GenerationService:
    return GenerationService(project, fake_registry(script), default_engine="fake", hosts=HostMode.IN_PROCESS)


def test_a_job_whose_end_cannot_be_stored_still_ends(tmp_path: Path) -> None:
    script = FakeScript()
    with Project.create(tmp_path / "story") as project:
        folder = project.path
        project.apply(AddTurn(project.tree.root_id, TEXT))
        turn = project.tree.children(project.tree.root_id)[-1].id
        other = sqlite3.connect(folder / "project.db", isolation_level=None, check_same_thread=False)
        held = threading.Event()

        def hold_the_database(changes: ChangeSet) -> None:
            """Right after the take is committed (on the writer, before the job's end is
            stored), another program takes the database for writing and keeps it."""
            if changes.added.get(EntityKind.TAKE) and not held.is_set():
                other.execute("BEGIN EXCLUSIVE")
                held.set()

        project.document.subscribe(hold_the_database)
        ended = threading.Event()
        heard: list[JobEvent] = []

        def listen(event: JobEvent) -> None:
            if event.kind.value in ENDS:
                heard.append(event)
                ended.set()

        service = _service(project, script)
        service.subscribe(listen)
        job = service.reroll(turn)
        service.start()
        try:
            assert ended.wait(30), "the job's end was never announced"
            assert held.is_set()
            assert [(e.job_id, e.kind.value) for e in heard] == [(job, "finished")]
            assert service.wait_idle(20)
        finally:
            other.execute("ROLLBACK")
            other.close()
            service.stop()
        take = heard[0].take_id

    with sqlite3.connect(folder / "project.db") as conn:  # the take is there; the end is not
        assert conn.execute("SELECT status FROM takes WHERE id = ?", (take,)).fetchone() == ("done",)
        assert conn.execute("SELECT status FROM jobs WHERE id = ?", (job,)).fetchone() == ("running",)
    conn.close()
    with Project.open(folder) as project:  # settled from the take
        service = _service(project, script)
        assert service.job(job).status is JobStatus.DONE and service.job(job).take_id == take
        service.stop()
