"""`kamishibai queue`, run from another terminal while `run-queue --cluster` works, says which
render farm node and engine actor runs the running job and how far it has got. A real local
Ray instance of one CPU and one actor, the sketch engine; the job is held mid-run by a
subscriber of its progress, so that the queue is read while it runs."""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli import main
from studio.composition import default_registry
from studio.core.commands import AddTurn
from studio.storage import Project
from studio.worker import EventKind, GenerationService, JobEvent, JobStatus, job_queue
from studio.worker.cluster import ClusterSpec

from .test_qa36_running_jobs_say_where import WAIT_S, _other_queue, _until

ray = pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def ray_instance() -> Iterator[None]:
    """A local Ray instance of one CPU, as ``--cluster local`` starts (its actors import the
    studio as this process does)."""
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, namespace="kamishibai-tests",
             object_store_memory=128 * 1024 * 1024, runtime_env={"env_vars": {"PYTHONPATH": path}})
    try:
        yield
    finally:
        ray.shutdown()


def test_queue_names_the_farm_node_and_actor_of_a_running_job(ray_instance: None, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(job_queue, "PROGRESS_STORE_S", 0.0)
    project = Project.create(tmp_path / "story")
    path = project.path
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: sit on railing; Background: day town."))
    service = GenerationService(project, default_registry(), default_engine="sketch",
                                cluster=ClusterSpec("local", actors=1))
    release = threading.Event()
    started: list[JobEvent] = []
    held: list[str] = []

    def hold(event: JobEvent) -> None:
        if event.kind is EventKind.STARTED:
            started.append(event)
        elif event.kind is EventKind.PROGRESS and event.fraction > 0 and not held:
            held.append(event.job_id)
            release.wait(WAIT_S)

    service.subscribe(hold)
    leaf = next(node.id for node in project.tree.nodes.values() if not node.is_root)
    (job_id,) = service.fill(leaf)
    service.start()
    try:
        def told() -> bool:
            listed = json.loads(_other_queue(path, "--json"))
            return listed[0]["status"] == "running" and bool(listed[0]["where"]) and bool(listed[0]["progress"])

        _until(told, "the job never showed running on the farm, with how far, in `queue --json`")
        (job,) = json.loads(_other_queue(path, "--json"))
        status = service.cluster_status()
        assert status is not None and len(status.actors) == 1
        actor = status.actors[0]
        assert actor.node and actor.job_id == job["take"]  # the actor runs it, on that node
        assert job["where"] == f"farm node {actor.node} · actor 0"
        assert re.fullmatch(r"farm node \S+ · actor 0", job["where"])
        assert 0 < job["progress"] < 1
        assert service.where(job_id) == job["where"] == started[0].where
        lines = _other_queue(path).splitlines()
        where_at = lines[0].index("where")
        assert lines[1][where_at:].startswith(f"{job['where']} · {job['progress'] * 100:.0f}%  "), lines
    finally:
        release.set()
    try:
        assert service.wait_jobs([job_id], WAIT_S)
        assert service.job(job_id).status is JobStatus.DONE
    finally:
        service.stop(timeout=30)
        project.close()
    capsys.readouterr()
    assert main(["queue", str(path), "--all", "--json"]) == 0
    (ended,) = json.loads(capsys.readouterr().out)
    assert ended["where"] == job["where"] and ended["progress"] is None  # where it ran stays
