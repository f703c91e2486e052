"""Without Ray: the cluster option is explained, never an import error. A cluster that
can't be joined (a closed port, an address that isn't Ray) is said quickly and the queued
jobs stay queued. And the queue's side of a lost host (no Ray needed): the job goes back
to the queue with its seed, and fails after too many losses."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from studio.core.instruction import Instruction
from studio.core.progress import Progress
from studio.engines.base import EngineConfig, EngineSettings, GenerationContext, Prediction
from studio.storage import Project
from studio.worker import EventKind, GenerationService, JobStatus
from studio.worker.cluster import (
    INSTALL_HINT,
    ClusterSpec,
    ConnectionState,
    RayMissingError,
    parse_cluster,
    ray_available,
)
from studio.worker.engine_host import HostLostError
from studio.worker.job_queue import MAX_HOST_LOSSES

from .conftest import Recorder
from .fake_engine import FakeEngine, FakeScript, fake_info, fake_registry

REPO = Path(__file__).resolve().parents[2]

WITHOUT_RAY = """
import sys
sys.modules["ray"] = None  # `import ray` raises ImportError, as where Ray is not installed
from studio.worker.cluster import ray_available
assert not ray_available()
from studio.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_run_queue_without_ray_says_how_to_install_it(tmp_path: Path) -> None:
    from studio.cli import main

    assert main(["new", str(tmp_path / "story")]) == 0
    path = next(tmp_path.glob("story*"))
    done = subprocess.run([sys.executable, "-c", WITHOUT_RAY, "run-queue", str(path), "--cluster", "local"],
                          capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 2, done.stderr
    assert "needs Ray, which is not installed" in done.stderr
    assert INSTALL_HINT in done.stderr
    assert "Traceback" not in done.stderr and "ImportError" not in done.stderr


def test_the_service_refuses_a_cluster_without_ray(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    assert not ray_available()
    registry = fake_registry(FakeScript(), "fake")
    with pytest.raises(RayMissingError, match="needs Ray") as caught:
        GenerationService(project, registry, default_engine="fake", cluster=ClusterSpec("local"))
    assert INSTALL_HINT in caught.value.message


def test_cluster_addresses_and_bad_actor_counts() -> None:
    assert parse_cluster("LOCAL").local
    assert parse_cluster("auto").address == "auto"
    assert parse_cluster(" 10.0.0.5:6379 ", actors=4) == ClusterSpec("10.0.0.5:6379", actors=4)
    with pytest.raises(Exception, match="client addresses"):
        parse_cluster("ray://head:10001")
    with pytest.raises(Exception, match="1 to 1024"):
        ClusterSpec("local", actors=0)


def test_actors_without_cluster_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    assert main(["new", str(tmp_path / "story")]) == 0
    path = next(tmp_path.glob("story*"))
    assert main(["run-queue", str(path), "--actors", "2"]) == 2
    assert "--actors needs --cluster" in capsys.readouterr().err


class _LosingEngine(FakeEngine):
    """Its host is 'lost' (as when a cluster node dies) the first ``losses[0]`` predicts."""

    losses = [0]

    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                *args: object, **kwargs: object) -> Prediction:
        if _LosingEngine.losses[0] > 0:
            _LosingEngine.losses[0] -= 1
            raise HostLostError("The cluster's actor 0 was lost during predict: ActorDiedError.")
        return super().predict(context, instruction, settings, seed, *args, **kwargs)  # type: ignore[arg-type]


def _losing_service(make_service: Callable[..., GenerationService], script: FakeScript) -> GenerationService:
    registry = fake_registry(script, "fake")
    info = fake_info(script, "lossy")
    registry.register(info, lambda config: _LosingEngine(config if isinstance(config, EngineConfig) else
                                                         EngineConfig(), script, info))
    return make_service(registry=registry, default_engine="lossy", start=False)


def test_a_lost_host_puts_its_job_back_with_its_seed(project: Project, script: FakeScript,
                                                      make_service: Callable[..., GenerationService],
                                                      recorder: Recorder) -> None:
    _LosingEngine.losses[0] = 1
    service = _losing_service(make_service, script)
    service.subscribe(recorder)
    _, job_id = service.generate(project.tree.root_id, "walk", seed=1234)
    service.start()
    assert service.wait_jobs([job_id], 30)
    job = service.job(job_id)
    assert job.status is JobStatus.DONE and job.seed == 1234
    assert recorder.kinds(job_id).count("started") == 2
    (requeued,) = [e for e in recorder.of("queued", job_id) if e.message]
    assert "was lost during predict" in requeued.message
    take = project.tree.takes[job.take_id]
    assert take.seed == 1234 and project.resolve(take.clip_path).is_file()
    assert [t.status.value for t in project.tree.takes.values()] == ["done"]  # no failed take for the loss


def test_a_job_that_keeps_losing_its_host_fails(project: Project, script: FakeScript,
                                                make_service: Callable[..., GenerationService],
                                                recorder: Recorder) -> None:
    _LosingEngine.losses[0] = 10
    service = _losing_service(make_service, script)
    service.subscribe(recorder)
    _, job_id = service.generate(project.tree.root_id, "walk")
    service.start()
    assert service.wait_jobs([job_id], 30)
    job = service.job(job_id)
    assert job.status is JobStatus.FAILED and f"lost {MAX_HOST_LOSSES} times" in job.error
    assert recorder.kinds(job_id).count("started") == MAX_HOST_LOSSES
    assert not project.tree.takes and not list((project.path / "media").glob("takes/*"))
    assert EventKind.FAILED in [e.kind for e in recorder.events if e.job_id == job_id]


# -- a cluster that can't be joined: said quickly, and the queued jobs stay queued ---------------

def _queued_jobs(tmp_path: Path) -> Path:
    """A project with two turns queued (``fill``), for run-queue to find."""
    from studio.cli import main

    demo = tmp_path / "turns.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: forest.\n"
                    "Character: Qiqi; Motion: jump; Background: day sky.\n")
    assert main(["import-demo", str(demo), "--project", str(tmp_path / "story")]) == 0
    path = tmp_path / "story.kamishibai"
    assert main(["fill", str(path)]) == 0
    return path


def _job_states(path: Path) -> list[str]:
    database = sqlite3.connect(path / "project.db")
    try:
        return sorted(status for (status,) in database.execute("SELECT status FROM jobs"))
    finally:
        database.close()


def _run_queue(path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``kamishibai run-queue`` in its own process (a failed ``ray.init`` leaves nothing in this one)."""
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "studio", "run-queue", str(path), "--quiet", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    return done, time.monotonic() - began


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_run_queue_at_a_closed_port_says_so_at_once_and_keeps_the_jobs(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    path = _queued_jobs(tmp_path)
    port = _free_port()
    done, _ = _run_queue(path, "--cluster", f"127.0.0.1:{port}")
    assert done.returncode == 2, done.stderr
    assert f"Could not connect to the Ray cluster (127.0.0.1:{port}): nothing takes connections" in done.stderr
    assert "Queued jobs stay queued" in done.stderr and "Traceback" not in done.stderr
    assert _job_states(path) == ["queued", "queued"]


def test_run_queue_at_an_address_that_is_not_ray_gives_up_after_its_timeout(tmp_path: Path) -> None:
    """Something answers at the address, but not Ray: the studio stops trying after
    ``--cluster-timeout`` seconds instead of Ray's own 20 (one attempt a second)."""
    pytest.importorskip("ray")
    path = _queued_jobs(tmp_path)
    with socket.socket() as server:  # takes connections, and closes each at once
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = int(server.getsockname()[1])
        stop = threading.Event()

        def serve() -> None:
            server.settimeout(0.2)
            while not stop.is_set():
                try:
                    server.accept()[0].close()
                except OSError:
                    continue

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        try:
            done, seconds = _run_queue(path, "--cluster", f"127.0.0.1:{port}", "--cluster-timeout", "2")
        finally:
            stop.set()
            thread.join(5)
    assert done.returncode == 2, done.stderr
    assert f"Could not connect to the Ray cluster (127.0.0.1:{port})" in done.stderr and "within 2 s" in done.stderr
    assert "Traceback" not in done.stderr
    assert seconds < 20  # Ray's own budget is 20 attempts, a second apart: ours was 2
    assert _job_states(path) == ["queued", "queued"]


def test_cluster_timeout_needs_a_cluster_and_a_sane_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from studio.cli import main

    path = _queued_jobs(tmp_path)
    assert main(["run-queue", str(path), "--cluster-timeout", "5"]) == 2
    assert "--cluster-timeout needs --cluster" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run-queue", str(path), "--cluster", "local", "--cluster-timeout", "0"])
    assert "more than 0" in capsys.readouterr().err
    assert _job_states(path) == ["queued", "queued"]


def test_joining_in_the_background_without_ray_keeps_jobs_queued_and_says_why(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window's way: the service exists at once, jobs queue, and the failure to join
    is kept (with the install command) for the window to show."""
    monkeypatch.setitem(sys.modules, "ray", None)
    registry = fake_registry(FakeScript(), "fake")
    service = GenerationService(project, registry, default_engine="fake", cluster=ClusterSpec("local"),
                                connect_in_background=True)
    try:
        status = service.cluster_status()
        assert status is not None and status.state is ConnectionState.CONNECTING
        _, job_id = service.generate(project.tree.root_id, "walk")  # queued before the cluster answers
        service.start()
        assert service.wait_connected(30)
        status = service.cluster_status()
        assert status is not None and status.state is ConnectionState.FAILED
        assert "needs Ray" in status.error and INSTALL_HINT in status.error
        assert "not connected" in status.summary()
        assert service.wait_idle(10)  # nothing can run, and nothing is lost
        assert service.job(job_id).status is JobStatus.QUEUED
        assert not service.engine_status().loaded
    finally:
        service.stop(timeout=10)
    assert _job_states(project.path) == ["queued"]


def test_tasks_run_here_while_the_render_farm_cannot_be_joined(project: Project,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """An export is work for this computer: it neither waits for the cluster's actors nor
    stays queued for ever when the cluster can't be joined, while the generation jobs stay
    queued for the cluster."""
    monkeypatch.setitem(sys.modules, "ray", None)
    registry = fake_registry(FakeScript(), "fake")
    service = GenerationService(project, registry, default_engine="fake", cluster=ClusterSpec("local"),
                                connect_in_background=True)
    ran_on: list[str] = []

    def export(progress: Callable[[Progress], None], cancelled: Callable[[], bool]) -> None:
        ran_on.append(threading.current_thread().name)
        progress(Progress(1, 1))

    try:
        _, job_id = service.generate(project.tree.root_id, "walk")
        task_id = service.submit_task("Export episode.mp4", export)
        service.start()
        assert service.wait_connected(30)
        assert service.wait_jobs([task_id], 10)
        assert service.job(task_id).status is JobStatus.DONE
        assert ran_on == ["kamishibai-tasks"]
        assert service.wait_idle(10)
        assert service.job(job_id).status is JobStatus.QUEUED
    finally:
        service.stop(timeout=10)
    assert _job_states(project.path) == ["queued"]
