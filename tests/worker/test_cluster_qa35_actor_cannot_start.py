"""An engine actor that can't start on its node (the studio's engines fail to import there,
their weights are missing where the engine is built) on a real local Ray instance.

Its first job used to fail with the reason, and every job queued after it (the turns below
it) was cancelled with it, though none of them had started. Now the host of that actor stops
for good, saying once which actor, on which node, and why; the jobs stay queued for the other
actors (which run the whole queue), or, with no actor left, for a later run, which
`run-queue` says with the command that goes on."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from studio.cli import main
from studio.composition import default_registry
from studio.core.commands import AddTurn
from studio.core.model import new_id
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.storage import Project
from studio.worker import EventKind, GenerationService, JobEvent, JobStatus
from studio.worker.cluster import ActorState, ClusterSpec
from studio.worker.cluster.ray_host import MAX_START_FAILURES, RayHost

from .fake_engine import FakeScript, fake_registry
from .process_engines import registry as process_registry

ray = pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]
MARKER_ENV = "KAMISHIBAI_QA35_FIRST_ACTOR_MARKER"
"""A file the first actor built creates (and fails); the next finds it and starts."""
UNBUILDABLE = "worker.no_such_engines:registry"
"""A registry source no node can import (as on a node without the studio's engines)."""


@pytest.fixture(scope="module")
def ray_instance(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local Ray instance of two CPUs whose actors import the studio and these tests; gives
    the marker file that :func:`first_fails` uses."""
    if ray.is_initialized():
        pytest.skip("this process is already on a Ray cluster")
    marker = tmp_path_factory.mktemp("qa35") / "first-actor"
    path = os.pathsep.join(p for p in (str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH", "")) if p)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, namespace="kamishibai-tests",
             object_store_memory=256 * 1024 * 1024,
             runtime_env={"env_vars": {"PYTHONPATH": path, MARKER_ENV: str(marker)}})
    try:
        yield marker
    finally:
        ray.shutdown()


def first_fails() -> EngineRegistry:
    """The test engines, except in the first actor built on the cluster, where building them
    fails as an engine whose weights are missing on that node does."""
    marker = os.environ.get(MARKER_ENV, "")
    if marker:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            pass
        else:
            raise FileNotFoundError(f"No weights for the fake engine in {marker}.missing-checkpoints")
    built = process_registry()
    built.source = f"{__name__}:first_fails"
    return built


def _branch(project: Project, turns: int) -> list[str]:
    parent = project.tree.root_id
    nodes = []
    for index in range(turns):
        node = new_id()
        project.apply(AddTurn(parent, f"turn {index}", node_id=node))
        nodes.append(node)
        parent = node
    return nodes


def _first_fails_service(marker: Path, tmp_path: Path, actors: int
                         ) -> tuple[Project, GenerationService, list[EventKind]]:
    """A new project's service on ``actors`` actors, the first of which fails to build its
    engines (see :func:`first_fails`), and the kinds of the job events it sends."""
    marker.unlink(missing_ok=True)
    project = Project.create(tmp_path / "story")
    registry = process_registry()
    registry.source = f"{__name__}:first_fails"
    service = GenerationService(project, registry, default_engine="fake", cluster=ClusterSpec("local", actors=actors))
    kinds: list[EventKind] = []
    service.subscribe(lambda event: kinds.append(event.kind))
    return project, service, kinds


def test_jobs_stay_queued_when_the_only_actor_cannot_start(ray_instance: Path, tmp_path: Path,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    project = Project.create(tmp_path / "story")
    registry = process_registry()
    registry.source = UNBUILDABLE
    service = GenerationService(project, registry, default_engine="fake", cluster=ClusterSpec("local", actors=1))
    ended: list[JobEvent] = []
    service.subscribe(lambda event: ended.append(event) if event.job.finished else None)
    try:
        jobs = service.fill(_branch(project, 3)[-1])
        assert len(jobs) == 3
        with caplog.at_level(logging.WARNING, logger="studio.worker.cluster.ray_host"):
            service.start()
            assert service.wait_idle(60)  # the run ends: no actor is left to wait for
        assert [service.job(job).status for job in jobs] == [JobStatus.QUEUED] * 3
        assert not ended and not project.tree.takes  # nothing failed, cancelled or recorded
        status = service.cluster_status()
        assert status is not None
        (actor,) = status.actors
        assert actor.state is ActorState.STOPPED
        assert actor.error.startswith("Engine actor 0 could not start on node ")
        assert "No module named 'worker.no_such_engines'" in actor.error and "\x1b" not in actor.error
        said = [r.getMessage() for r in caplog.records if "could not start" in r.getMessage()]
        assert len(said) == 1 and said[0].startswith(actor.error), said  # said once, with what to do
        assert "stay queued" in said[0] and "on every node" in said[0]
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def test_the_other_actor_runs_the_whole_queue_when_one_cannot_start(ray_instance: Path, tmp_path: Path) -> None:
    project, service, kinds = _first_fails_service(ray_instance, tmp_path, actors=2)
    try:
        jobs = service.fill(_branch(project, 2)[-1]) + service.fill(_branch(project, 2)[-1])
        service.start()
        assert service.wait_jobs(jobs, 120)
        assert [service.job(job).status for job in jobs] == [JobStatus.DONE] * 4
        assert EventKind.FAILED not in kinds and EventKind.CANCELLED not in kinds
        status = service.cluster_status()
        assert status is not None
        broken = [actor for actor in status.actors if actor.error]
        assert len(broken) == 1 and broken[0].state is ActorState.STOPPED
        assert "FileNotFoundError: No weights for the fake engine" in broken[0].error
        working = [actor for actor in status.actors if not actor.error]
        assert len(working) == 1 and working[0].pid is not None
        pids = {project.tree.takes[service.job(job).take_id].conditioning["pid"] for job in jobs}
        assert pids == {working[0].pid}
        assert ray_instance.is_file()  # the failure really came from the first actor's build
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def test_retrying_starts_an_actor_that_could_not_start_and_its_queued_jobs_run(ray_instance: Path,
                                                                                tmp_path: Path) -> None:
    """The node fixed, Retry (``connect_again``) lets the stopped actor start again: the jobs
    that stayed queued run on it, with nothing failed on the way; a retry with every actor up
    has nothing to do."""
    project, service, kinds = _first_fails_service(ray_instance, tmp_path, actors=1)
    try:
        jobs = service.fill(_branch(project, 2)[-1])
        service.start()
        assert service.wait_idle(60)
        assert [service.job(job).status for job in jobs] == [JobStatus.QUEUED] * 2
        status = service.cluster_status()
        assert status is not None and status.actors[0].error
        assert service.connect_again()
        assert service.wait_jobs(jobs, 120)
        assert [service.job(job).status for job in jobs] == [JobStatus.DONE] * 2
        assert EventKind.FAILED not in kinds and EventKind.CANCELLED not in kinds
        status = service.cluster_status()
        assert status is not None and not status.actors[0].error and status.actors[0].pid is not None
        assert not service.connect_again(), "every actor started: nothing to retry"
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def test_run_queue_says_which_actor_could_not_start_and_what_goes_on(ray_instance: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: forest.\n"
                    "Character: Qiqi; Motion: jump; Background: day town.\n")
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "story")]) == 0
    path = tmp_path / "story.kamishibai"
    assert main(["fill", str(path)]) == 0

    def unbuildable() -> EngineRegistry:
        built = default_registry()
        built.source = UNBUILDABLE  # the studio's engines can't be imported on the farm's node
        return built

    monkeypatch.setattr("studio.composition.default_registry", unbuildable)
    capsys.readouterr()
    assert main(["run-queue", str(path), "--quiet", "--cluster", "local", "--actors", "1"]) == 1
    err = capsys.readouterr().err
    assert "0 done, 0 failed, 0 cancelled" in err, err
    assert "kamishibai: warning: Engine actor 0 could not start on node " in err
    assert "No module named 'worker.no_such_engines'" in err
    assert "2 job(s) are still queued and did not run" in err
    assert "No engine actor of the render farm (local) could start; they stay queued" in err
    assert f"kamishibai run-queue {path} --cluster local" in err and "without --cluster" in err
    database = sqlite3.connect(path / "project.db")
    try:
        assert [row[0] for row in database.execute("SELECT status FROM jobs")] == ["queued", "queued"]
        assert database.execute("SELECT count(*) FROM takes").fetchone()[0] == 0
    finally:
        database.close()


class _DyingActor:
    """An actor whose process dies before it answers (see ``DyingRay``)."""

    def __init__(self) -> None:
        self.info = SimpleNamespace(remote=lambda: "ref")


def test_an_actor_that_keeps_dying_after_a_loss_stops_its_host_without_failing_a_job(
        script: FakeScript, caplog: pytest.LogCaptureFixture) -> None:
    """After a loss, Ray's restarts and the studio's new actors all die before answering (a
    node whose driver crashes the process at import): the host used to hand its next job
    the reason to fail with; now it stops, saying why, and takes no job."""
    from .test_ray_host_ends_a_stuck_actor import ActorDiedError, FakeCluster, FakeRay

    class DyingRay(FakeRay):
        def get(self, ref: object, timeout: float | None = None) -> object:
            raise ActorDiedError("The actor died unexpectedly before finishing this task.\n"
                                 "\tclass_name: EngineActor\n\tpid: 4242\n\tip: 10.0.0.3\n"
                                 "The actor's worker process (pid=4242, ip=10.0.0.3) exited with SIGSEGV")

    cluster = FakeCluster()
    cluster.ray = DyingRay()
    started: list[_DyingActor] = []
    cluster.new_actor = lambda config: started.append(_DyingActor()) or started[-1]  # type: ignore
    host = RayHost(cluster, 1, fake_registry(script, "fake"), EngineConfig())
    host._mark_lost()  # what a job that lost the actor leaves behind (the job went back to the queue)
    with caplog.at_level(logging.WARNING, logger="studio.worker.cluster.ray_host"):
        assert host.wait_ready(lambda: len(started) > 10) is False  # stopped by itself, not by the service
    assert len(started) == MAX_START_FAILURES
    view = host.view()
    assert view.state is ActorState.STOPPED
    assert view.error == "Engine actor 1 could not start on node 10.0.0.3: The actor's worker process " \
                         "(pid=4242, ip=10.0.0.3) exited with SIGSEGV"
    said = [r.getMessage() for r in caplog.records if "could not start" in r.getMessage()]
    assert len(said) == 1 and "stay queued" in said[0]
    assert host.wait_ready(lambda: False) is False and len(started) == MAX_START_FAILURES  # no more actors
