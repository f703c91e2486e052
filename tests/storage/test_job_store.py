"""The job store against real project databases: every method, read back through a new
connection, and the queued jobs of a project made by release 0.1.0 (schema v2)."""

from __future__ import annotations

import sqlite3
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from studio.composition import create_project
from studio.core.jobs import Job, JobKind, JobStatus
from studio.storage import Project
from studio.storage.database import read_version
from studio.storage.job_store import INTERRUPTED_MESSAGE, JobStore, check_settings, owner_alive, owner_token

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "project-v0.1.0.zip"


def _job(index: int, **changes: object) -> Job:
    job = Job(id=f"job{index:03d}", kind=JobKind.GENERATE, node_id=f"node{index}", engine="sketch", seed=index,
              settings={"frames": 3, "style": "ink"}, priority=0, sequence=index, created_at="2026-11-30T10:00:00")
    return replace(job, **changes)  # type: ignore[arg-type]


@pytest.fixture
def project_path(tmp_path: Path) -> Path:
    project = create_project(tmp_path / "store")
    path = project.path
    project.close()
    return path


def test_jobs_saved_are_read_back_equal_after_reopening(project_path: Path) -> None:
    jobs = [_job(3), _job(1, priority=2, label="re-roll x2", depends_on="job000"),
            _job(2, status=JobStatus.FAILED, error="It broke.", hint="Retry it.", finished_at="2026-11-30T10:01:00")]
    with Project.open(project_path) as project:
        JobStore(project.database).save(*jobs)
    with Project.open(project_path, read_only=True) as project:
        store = JobStore(project.database)
        loaded = store.load()
        assert [job.id for job in loaded] == ["job001", "job002", "job003"]  # by sequence
        assert loaded == sorted(jobs, key=lambda job: job.sequence)
        assert [job.id for job in store.load(include_finished=False)] == ["job001", "job003"]
        assert store.get("job002") == jobs[2]
        assert store.get("nope") is None
        assert store.next_sequence() == 4


def test_saving_a_job_again_updates_its_row_and_tasks_are_never_stored(project_path: Path) -> None:
    with Project.open(project_path) as project:
        store = JobStore(project.database)
        store.save(_job(1))
        task = Job(id="task", kind=JobKind.TASK, node_id=None)
        store.save_all([_job(1, status=JobStatus.DONE, take_id="take1"), task])
        assert store.load() == [_job(1, status=JobStatus.DONE, take_id="take1")]
    conn = sqlite3.connect(project_path / "project.db")
    try:
        assert conn.execute("SELECT COUNT(*) FROM jobs").fetchone() == (1,)
        assert conn.execute("SELECT settings FROM jobs").fetchone() == ('{"frames":3,"style":"ink"}',)
    finally:
        conn.close()


def test_a_job_is_claimed_once(project_path: Path) -> None:
    with Project.open(project_path) as project:
        store = JobStore(project.database)
        store.save(_job(1))
        running = _job(1, status=JobStatus.RUNNING, started_at="2026-11-30T10:00:05", take_id="take9")
        assert store.claim(running) is True
        assert store.claim(running) is False  # no longer queued
        stored = store.get("job001")
        assert stored is not None and stored.status is JobStatus.RUNNING and stored.take_id == "take9"
        assert store.abandoned_ids() == {"job001"}  # a reader counts this process as gone too
        assert project.database.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again after the claim
    conn = sqlite3.connect(project_path / "project.db")  # another connection sees the claim
    try:
        assert conn.execute("SELECT status, take_id FROM jobs").fetchall() == [("running", "take9")]
    finally:
        conn.close()


def test_recover_settles_dead_owners_jobs_from_the_database(project_path: Path) -> None:
    removed: list[str] = []
    with Project.open(project_path) as project:
        store = JobStore(project.database)
        dead = "elsewhere.invalid:12345"
        assert not owner_alive(dead) and not owner_alive(owner_token())
        store.save(_job(1, status=JobStatus.RUNNING, take_id="half"), owner=dead)
        store.save(_job(2, status=JobStatus.RUNNING, take_id="mine"), owner=store.owner)  # ourselves: not dead
        store.save(_job(3, status=JobStatus.DONE), _job(4, status=JobStatus.CANCELLED), _job(5))
        assert store.abandoned_ids() == {"job001", "job002"}  # our own pid counts as gone for a reader
        recovered = store.recover(removed.append)
        assert [job.id for job in recovered.interrupted] == ["job001", "job002"]
        assert recovered.settled == ()
        assert removed == ["half", "mine"]
        interrupted = store.get("job001")
        assert interrupted is not None and interrupted.status is JobStatus.INTERRUPTED
        assert interrupted.error == INTERRUPTED_MESSAGE
        assert store.delete_finished() == 2
        assert {job.id for job in store.load()} == {"job001", "job002", "job005"}


def test_a_row_from_a_newer_version_is_left_alone(project_path: Path) -> None:
    with Project.open(project_path) as project:
        store = JobStore(project.database)
        store.save(_job(1), _job(2))
    conn = sqlite3.connect(project_path / "project.db")
    try:
        with conn:
            conn.execute("UPDATE jobs SET status='paused-by-a-later-version' WHERE id='job002'")
    finally:
        conn.close()
    with Project.open(project_path) as project:
        assert [job.id for job in JobStore(project.database).load()] == ["job001"]


def test_settings_that_cannot_be_stored_are_refused_with_a_message() -> None:
    assert check_settings(None) == {}
    with pytest.raises(Exception, match="plain values"):
        check_settings({"bad": object()})


def test_the_queued_jobs_of_a_v010_project_read_the_same_before_and_after_its_upgrade(tmp_path: Path) -> None:
    with zipfile.ZipFile(FIXTURE) as archive:
        archive.extractall(tmp_path)
    path = tmp_path / "v1-story.kamishibai"
    db = path / "project.db"
    assert read_version(db) == 2
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        raw = [dict(row) for row in conn.execute("SELECT * FROM jobs ORDER BY sequence")]
    finally:
        conn.close()
    assert any(row["status"] == "queued" for row in raw)
    with Project.open(path) as project:
        assert read_version(db) >= 3
        store = JobStore(project.database)
        loaded = store.load()
        assert [(j.id, j.status.value, j.node_id, j.engine, j.seed, j.sequence, j.depends_on) for j in loaded] == \
            [(r["id"], r["status"], r["node_id"], r["engine"], r["seed"], r["sequence"], r["depends_on"]) for r in raw]
        queued = [job for job in loaded if job.status is JobStatus.QUEUED]
        running = replace(queued[0], status=JobStatus.RUNNING, take_id="newtake")
        assert store.claim(running) is True
        assert store.get(queued[0].id) == replace(running, started_at=queued[0].started_at)


@pytest.mark.parametrize("take_id", [".", "..", "../x", "a/b", "a\\b", "\x00"])
def test_recover_removes_nothing_for_a_take_id_that_is_not_a_plain_name(project_path: Path, take_id: str) -> None:
    """A job row with take id '.' made recovery remove media/takes/., every take's files."""
    from studio.storage.paths import UnsafePathError

    keep = project_path / "media" / "takes" / "t1" / "clip.mp4"
    keep.parent.mkdir(parents=True)
    keep.write_bytes(b"clip")
    removed: list[str] = []
    with Project.open(project_path) as project:
        with pytest.raises(UnsafePathError, match="not a plain name"):
            project.take_media_dir(take_id)
        project.remove_take_media(take_id)
        store = JobStore(project.database)
        store.save(_job(1, status=JobStatus.RUNNING, take_id=take_id), owner="elsewhere.invalid:1")
        recovered = store.recover(removed.append)
        assert removed == []
        assert [job.id for job in recovered.interrupted] == ["job001"]
        assert len(recovered.problems) == 1 and "not a plain name" in recovered.problems[0]
        job = store.get("job001")
        assert job is not None and job.status is JobStatus.INTERRUPTED and "Nothing was removed" in job.error
    assert keep.read_bytes() == b"clip"
