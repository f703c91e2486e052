"""Where a job runs (schema 5): stored when it starts, kept when it ends, cleared when it goes
back to the queue; its progress stored while it runs. A project written by the previous
schema (its ``jobs`` table made by the old CREATE TABLE) is read as it is, upgraded when
opened for writing, and its old queue runs on; a version of the studio that knows only
schema 4 refuses the upgraded project, naming it, and leaves it as it is."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from older_schemas import assert_upgraded, rewound_to_schema  # tests/ is on sys.path

from studio.cli import main
from studio.core.commands import AddTurn
from studio.core.jobs import Job, JobKind, JobStatus
from studio.storage import Project, database
from studio.storage.errors import ProjectTooNewError
from studio.storage.job_store import JobPlace, JobStore
from studio.storage.schema import MIGRATIONS

OLD_JOBS_TABLE = """
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL DEFAULT 'generate',
    node_id TEXT,
    engine TEXT NOT NULL DEFAULT '',
    seed INTEGER NOT NULL DEFAULT 0,
    settings TEXT NOT NULL DEFAULT '{}',
    priority INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'queued',
    sequence INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL DEFAULT '',
    finished_at TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    hint TEXT NOT NULL DEFAULT '',
    take_id TEXT NOT NULL DEFAULT '',
    depends_on TEXT,
    label TEXT NOT NULL DEFAULT '',
    retry_of TEXT,
    owner TEXT NOT NULL DEFAULT ''
)"""
"""The ``jobs`` table as schema 2 to 4 made it (written out here as it was released)."""


def _job(number: int, **changes: object) -> Job:
    values: dict[str, object] = {"id": f"job{number:03d}", "kind": JobKind.GENERATE, "node_id": "n1",
                                 "engine": "sketch", "seed": number, "sequence": number}
    values.update(changes)
    return Job(**values)  # type: ignore[arg-type]


@pytest.fixture
def project_path(tmp_path: Path) -> Path:
    Project.create(tmp_path / "story").close()
    return tmp_path / "story.kamishibai"


def test_a_job_s_place_follows_its_life(project_path: Path) -> None:
    with Project.open(project_path) as project:
        store = JobStore(project.database)
        store.save(_job(1), _job(2))
        assert store.places() == {}  # queued: runs nowhere yet
        running = _job(1, status=JobStatus.RUNNING, take_id="t1")
        assert store.claim(running, "cuda:1")
        assert store.places() == {"job001": JobPlace("cuda:1", None)}  # no progress said yet
        assert store.record_progress("job001", 0.42)
        assert store.places()["job001"] == JobPlace("cuda:1", pytest.approx(0.42))
        assert not store.record_progress("job002", 0.5)  # not running: nothing written
        store.save_all([_job(1, status=JobStatus.DONE, take_id="t1")], durable=False)
        assert store.places() == {"job001": JobPlace("cuda:1", None)}  # where it ran stays; progress goes
        assert not store.record_progress("job001", 0.9)  # a late progress of an ended job is dropped
        # another job: the farm's actor, then sent back to the queue (its host was lost)
        assert store.claim(_job(2, status=JobStatus.RUNNING, take_id="t2"), "farm node 10.0.0.3 · actor 2")
        assert store.record_progress("job002", 0.1)
        store.save(_job(2))  # queued again: it runs nowhere until taken again
        assert "job002" not in store.places()
    conn = sqlite3.connect(project_path / "project.db")  # as stored, seen by another connection
    try:
        rows = conn.execute("SELECT id, status, runner, progress FROM jobs ORDER BY id").fetchall()
    finally:
        conn.close()
    assert rows == [("job001", "done", "cuda:1", None), ("job002", "queued", "", None)]


def test_recovery_keeps_where_an_interrupted_job_ran(project_path: Path) -> None:
    with Project.open(project_path) as project:
        store = JobStore(project.database)
        store.save(_job(1))
        assert store.claim(_job(1, status=JobStatus.RUNNING, take_id="half"), "cuda:0")
        assert store.record_progress("job001", 0.6)
        project.database.execute("UPDATE jobs SET owner='elsewhere.invalid:1'")  # its process is gone
        recovered = store.recover()
        assert [job.id for job in recovered.interrupted] == ["job001"]
        assert store.places() == {"job001": JobPlace("cuda:0", None)}


def _as_schema_4(path: Path, rows: list[dict[str, object]]) -> None:
    """The project's database as the studio of schema 4 wrote it: the ``jobs`` table made by
    its CREATE TABLE (no ``runner``, no ``progress``), holding ``rows``."""
    with rewound_to_schema(path, 4) as conn:
        conn.execute("DROP TABLE jobs")
        conn.execute("ALTER TABLE takes DROP COLUMN start_state")  # what later versions added
        conn.execute(OLD_JOBS_TABLE)
        conn.execute("CREATE INDEX jobs_status ON jobs(status, priority, sequence)")
        for row in rows:
            conn.execute(f"INSERT INTO jobs ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                         tuple(row.values()))


def _digest(path: Path) -> str:
    return hashlib.sha256((path / "project.db").read_bytes()).hexdigest()


def test_a_schema_4_project_is_read_as_it_is_then_upgraded_and_refused_by_schema_4(
        project_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    with Project.open(project_path) as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town."))
        turn = next(node.id for node in project.tree.nodes.values() if not node.is_root)
    _as_schema_4(project_path, [
        {"id": "old1", "node_id": turn, "engine": "sketch", "seed": 3, "status": "done", "sequence": 1,
         "take_id": "", "owner": ""},
        {"id": "old2", "node_id": turn, "engine": "sketch", "seed": 4, "status": "queued", "sequence": 2},
    ])
    before = _digest(project_path)

    # `queue` reads it as it is: no place known, nothing written, no backup made
    capsys.readouterr()
    assert main(["queue", str(project_path), "--all", "--json"]) == 0
    listed = {job["id"]: job for job in json.loads(capsys.readouterr().out)}
    assert listed["old2"]["status"] == "queued" and listed["old2"]["where"] is None
    assert listed["old1"]["progress"] is None
    assert _digest(project_path) == before and not list(project_path.glob("project.db.bak-*"))

    with Project.open(project_path) as project:  # opened for writing: upgraded, old rows kept
        assert project.database.meta()["schema_version"] == str(len(MIGRATIONS))  # every later schema too
        store = JobStore(project.database)
        assert [(job.id, job.status.value) for job in store.load()] == [("old1", "done"), ("old2", "queued")]
        assert store.places() == {}
        old2 = store.get("old2")
        assert old2 is not None
        assert store.claim(Job(**{**_fields(old2), "status": JobStatus.RUNNING, "take_id": "tk"}), "cpu")
        assert store.places() == {"old2": JobPlace("cpu", None)}
    assert (project_path / "project.db.bak-v4").is_file()
    assert_upgraded(project_path)

    # a studio that reads up to schema 4 refuses it, naming it, and changes nothing
    upgraded = _digest(project_path)
    monkeypatch.setattr(database, "MIGRATIONS", MIGRATIONS[:4])
    monkeypatch.setattr(database, "schema_version", lambda: 4)
    for read_only in (True, False):
        with pytest.raises(ProjectTooNewError) as refused:
            Project.open(project_path, read_only=read_only)
        assert f"{project_path / 'project.db'} was saved by a newer Kamishibai Studio (schema {len(MIGRATIONS)})" in \
            refused.value.message
        assert "this version reads up to schema 4" in refused.value.message
    assert _digest(project_path) == upgraded


def _fields(job: Job) -> dict[str, object]:
    return {name: getattr(job, name) for name in job.__dataclass_fields__}
