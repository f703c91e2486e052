"""A failed take keeps the hint its engine's error carried (what to do about running out of
memory, missing weights...), not only the error: once its job is forgotten from the queue,
the take is all that is left to say what to do. A project written before takes had a hint
opens as it did, its failed takes with no hint."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from studio.core.model import TakeStatus
from studio.storage import Project
from studio.storage.schema import MIGRATIONS
from studio.storage.schema_check import compare
from studio.worker.failures import OOM_HINT

REPO = Path(__file__).resolve().parents[2]


def _failed_take(project, service, text: str):  # type: ignore[no-untyped-def]
    node_id, job_id = service.generate(project.tree.root_id, text)
    assert service.wait_jobs([job_id], 20)
    job = service.job(job_id)
    assert job.status.value == "failed" and job.hint
    [take] = project.tree.takes_of(node_id)
    assert take.status is TakeStatus.FAILED
    return job, take


def test_a_failed_take_keeps_its_hint_after_reopening(project, make_service, script) -> None:  # type: ignore[no-untyped-def]
    service = make_service()
    job, take = _failed_take(project, service, "run out [oom]")
    assert take.hint == job.hint == OOM_HINT
    script.load_error = "weights/fake.safetensors"
    job2, take2 = _failed_take(project, service, "no weights")
    assert take2.error == job2.error and take2.hint == "Download the weights into that folder."
    service.stop(timeout=10)
    path = project.path
    project.close()
    with Project.open(path) as again:
        assert again.tree.takes[take.id].hint == OOM_HINT
        assert again.tree.takes[take2.id].hint == "Download the weights into that folder."


def test_tree_json_shows_a_failed_takes_hint(project, make_service) -> None:  # type: ignore[no-untyped-def]
    service = make_service()
    _, take = _failed_take(project, service, "run out [oom]")
    service.stop(timeout=10)
    path = project.path
    project.close()
    shown = subprocess.run([sys.executable, "-m", "studio", "tree", str(path), "--json"], capture_output=True,
                           text=True, cwd=REPO, timeout=120, check=False, env=dict(os.environ))
    assert shown.returncode == 0, shown.stderr
    takes = {t["id"]: t for node in json.loads(shown.stdout)["nodes"] for t in node["takes"]}
    assert takes[take.id]["error"] == take.error and takes[take.id]["hint"] == OOM_HINT


def _as_written_before(path: Path) -> None:
    """The project's database as the studio wrote it before takes kept a hint (schema 3)."""
    conn = sqlite3.connect(path / "project.db")
    try:
        conn.execute("ALTER TABLE takes DROP COLUMN hint")
        conn.execute("ALTER TABLE jobs DROP COLUMN runner")  # and what later versions added
        conn.execute("ALTER TABLE jobs DROP COLUMN progress")
        conn.execute("ALTER TABLE takes DROP COLUMN start_state")
        conn.execute("UPDATE meta SET value='3' WHERE key='schema_version'")
        conn.commit()
    finally:
        conn.close()


def test_a_project_written_before_opens_and_its_failed_takes_have_no_hint(project, make_service) -> None:  # type: ignore[no-untyped-def]
    service = make_service()
    _, take = _failed_take(project, service, "run out [oom]")
    service.stop(timeout=10)
    path = project.path
    project.close()
    _as_written_before(path)
    with Project.open(path, read_only=True) as reader:  # read as it is
        old = reader.tree.takes[take.id]
        assert old.error == take.error and old.hint == ""
    with Project.open(path) as writer:  # upgraded
        assert writer.tree.takes[take.id].hint == ""
    conn = sqlite3.connect(path / "project.db")
    try:
        assert compare(conn, MIGRATIONS).empty
    finally:
        conn.close()
