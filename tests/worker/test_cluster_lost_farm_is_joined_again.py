"""A render farm whose head restarts (it crashed, or the network dropped) while the window is
open. Before, the studio said the farm was lost and never joined it again: the queued jobs
waited until the app was restarted (Ray even ended the whole app a minute later, its driver
still tied to the dead head). Now the job that was running goes back to the queue (not
failed, not hanging), the status says the farm was lost, why, and when the studio tries
joining it again; once the head answers, the studio joins it (by itself, or at once with
"Connect again") and the queued jobs run there.

A real Ray head is started as on a cluster's head node (`ray start --head --block`, in a
temporary folder of its own so it never becomes this machine's default cluster) and killed
with SIGKILL, process group and all, as a crash would end it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

import pytest

import studio.worker.service as service_module
from studio.storage import Project
from studio.worker import EventKind, GenerationService, JobEvent, JobStatus, job_queue
from studio.worker.cluster import ClusterSpec, ConnectionState, retry
from studio.worker.cluster.retry import RETRY_HINT

from .process_engines import registry as process_registry

ray = pytest.importorskip("ray")

REPO = Path(__file__).resolve().parents[2]
RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _wait(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.1)


class Head:
    """A Ray cluster's head on this machine, at a fixed port, that can crash and come back."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="kr", dir="/tmp")  # short: Ray's socket paths are limited
        self.process: subprocess.Popen[bytes] | None = None
        # Ray's fixed default ports (its agents', its client server's) may be held by another
        # Ray instance on this machine, or one just shut down: then no actor starts here
        self.agent_ports = [f"--{name}={_free_port()}" for name in (
            "dashboard-agent-listen-port", "dashboard-agent-grpc-port", "runtime-env-agent-port",
            "metrics-export-port", "node-manager-port", "object-manager-port")]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        path = os.pathsep.join(p for p in (str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONPATH": path, "RAY_TMPDIR": self.folder, "RAY_AUTH_MODE": "disabled"}
        with open(Path(self.folder) / "head.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(RAY), "start", "--head", "--block", f"--port={self.port}", "--num-cpus=2",
                 "--include-dashboard=false", "--node-ip-address=127.0.0.1", "--disable-usage-stats",
                 f"--temp-dir={self.folder}", *self.agent_ports],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        _wait(lambda: _answers(self.port), 90, "the head to answer")

    def crash(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            os.killpg(process.pid, signal.SIGKILL)  # the group this test started, and only it
            process.wait(30)
        _wait(lambda: not _answers(self.port), 30, "the head to stop answering")

    def close(self) -> None:
        self.crash()
        shutil.rmtree(self.folder, ignore_errors=True)


def _service(folder: Path, head: Head) -> tuple[Project, GenerationService, list[JobEvent]]:
    project = Project.create(folder / "story")
    service = GenerationService(project, process_registry(), default_engine="fake",
                                cluster=ClusterSpec(head.address, actors=1, connect_timeout_s=30),
                                connect_in_background=True)
    events: list[JobEvent] = []
    service.subscribe(events.append)
    service.start()
    assert service.wait_connected(90)
    status = service.cluster_status()
    assert status is not None and status.state is ConnectionState.CONNECTED, status
    return project, service, events


def _held_job_lost_with_the_farm(project: Project, service: GenerationService, head: Head,
                                 events: list[JobEvent]) -> str:
    """A long job running on the farm when its head crashes: it is queued again, not failed."""
    running = threading.Event()
    service.subscribe(lambda e: running.set() if e.kind is EventKind.PROGRESS and e.stage == "predict" else None)
    _, held = service.generate(project.tree.root_id, "held [hold]")
    assert running.wait(90), service.job(held).error
    head.crash()
    _wait(lambda: service.job(held).status is JobStatus.QUEUED, 60, "the running job to go back to the queue")
    _wait(lambda: service.cluster_status().state is ConnectionState.LOST, 30,  # type: ignore[union-attr]
          "the status to say the farm was lost")
    back = [e for e in events if e.job_id == held and e.kind is EventKind.QUEUED and e.message]
    assert back and "render farm was lost" in back[-1].message, [e.message for e in events]
    return held


def joined_again_by_itself(folder: Path, head: Head) -> None:
    retry.RETRY_DELAYS_S = (0.5,)
    # a job whose host is lost this many times fails; a whole farm lost is not the job's doing
    job_queue.MAX_HOST_LOSSES = 1
    project, service, events = _service(folder, head)
    try:
        held = _held_job_lost_with_the_farm(project, service, head, events)
        _, later = service.generate(project.tree.root_id, "queued while the farm was gone")
        status = service.cluster_status()
        assert status is not None and status.state in (ConnectionState.LOST, ConnectionState.CONNECTING)
        assert service.job(later).status is JobStatus.QUEUED

        head.start()  # the head is back, at the same address
        assert service.wait_jobs([held, later], 180), [service.job(j) for j in (held, later)]
        assert [service.job(j).status for j in (held, later)] == [JobStatus.DONE, JobStatus.DONE]
        status = service.cluster_status()
        assert status is not None and status.state is ConnectionState.CONNECTED, status
        assert not [e for e in events if e.kind is EventKind.FAILED]
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def joined_again_when_asked(folder: Path, head: Head) -> None:
    """The first attempt (the head still down) fails and the next one is far off: the status
    says so, with the attempt's reason; "Connect again" joins the farm back now."""
    retry.RETRY_DELAYS_S = (0.5, 600.0)
    project, service, events = _service(folder, head)
    try:
        held = _held_job_lost_with_the_farm(project, service, head, events)

        def waiting_long() -> bool:
            status = service.cluster_status()
            return status is not None and status.retry_in_s is not None and status.retry_in_s > 60

        _wait(waiting_long, 60, "the first attempt to fail")
        status = service.cluster_status()
        assert status is not None and status.state is ConnectionState.LOST and status.hint == RETRY_HINT
        summary = status.summary()
        assert summary.startswith(f"The render farm ({head.address}) was lost: its head at ")
        assert "Last attempt: " in summary and "(attempt 2)." in summary and "Trying again in " in summary
        assert service.job(held).status is JobStatus.QUEUED

        head.start()
        assert service.connect_again()
        assert service.wait_jobs([held], 180)
        assert service.job(held).status is JobStatus.DONE
        assert project.tree.takes[service.job(held).take_id].status.value == "done"
        status = service.cluster_status()
        assert status is not None and status.state is ConnectionState.CONNECTED, status
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()


def _scenario(name: str, folder: str, report: str) -> None:
    """In the child process: start the head, run the scenario ``name``, write why it failed."""
    service_module.WATCH_S = 0.3
    # as the head: a local Ray instance started by another test turned token authentication
    # on in the environment this process inherited
    os.environ["RAY_AUTH_MODE"] = "disabled"
    head = Head()
    try:
        head.start()
        globals()[name](Path(folder), head)
    except BaseException:
        Path(report).write_text(traceback.format_exc())
        raise SystemExit(1) from None
    finally:
        if ray.is_initialized():
            ray.shutdown()
        head.close()


def _in_a_process_of_its_own(name: str, tmp_path: Path) -> None:
    """Each scenario runs in a fresh process, with Ray's settings taken out of its
    environment: a local Ray instance started by another test in this process changed them
    (token authentication on), and a process that imports Ray with them can't start actors
    on this head."""
    report = tmp_path / "failure.txt"
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_") and key != "PYTHONBREAKPOINT"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    code = f"from {__name__} import _scenario; _scenario({name!r}, {str(tmp_path)!r}, {str(report)!r})"
    done = subprocess.run([sys.executable, "-c", code], env=env, timeout=600, capture_output=True)
    assert done.returncode == 0, report.read_text() if report.exists() else done.stderr.decode()[-3000:]


def test_a_lost_farm_is_joined_again_by_itself_and_runs_the_queued_jobs(tmp_path: Path) -> None:
    _in_a_process_of_its_own("joined_again_by_itself", tmp_path)


def test_connect_again_joins_a_farm_back_at_once(tmp_path: Path) -> None:
    _in_a_process_of_its_own("joined_again_when_asked", tmp_path)
