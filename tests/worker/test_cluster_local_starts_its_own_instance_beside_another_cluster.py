"""``--cluster local`` (or Render farm: local) on a machine where `ray start` runs a cluster
(or left its address behind in Ray's temporary folder): Ray joined that cluster instead of
starting the private instance the docs promise, and refused at once ("When connecting to an
existing cluster, num_cpus and num_gpus must not be provided"), so the render farm could not
be used at all. Now local always starts an instance of its own, and the jobs run there.

Ray's temporary folder is a private one for this test (``RAY_TMPDIR``), holding the address
of a cluster as `ray start` leaves it."""

from __future__ import annotations

import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.storage import Project
from studio.worker import GenerationService, JobStatus
from studio.worker.cluster import ClusterSpec

from .process_engines import registry as process_registry

ray = pytest.importorskip("ray")


@pytest.fixture
def another_cluster_on_this_machine(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="kr", dir="/tmp"))  # short: Ray's socket paths are limited
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    (folder / "ray").mkdir()
    (folder / "ray" / "ray_current_cluster").write_text(f"127.0.0.1:{port}")
    monkeypatch.setenv("RAY_TMPDIR", str(folder))
    try:
        yield folder
    finally:
        if ray.is_initialized():
            ray.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


def test_local_starts_an_instance_of_its_own(another_cluster_on_this_machine: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    tests = Path(__file__).resolve().parents[1]
    monkeypatch.setenv("PYTHONPATH", f"{tests.parent}:{tests}")  # the actors rebuild these tests' engines
    project = Project.create(tmp_path / "story")
    service = GenerationService(project, process_registry(), default_engine="fake",
                                cluster=ClusterSpec("local", actors=1, cpus=1))
    try:
        _, job = service.generate(project.tree.root_id, "a turn on the local farm")
        service.start()
        assert service.wait_jobs([job], 120)
        assert service.job(job).status is JobStatus.DONE, service.job(job).error
    finally:
        service.stop(cancel_running=True, timeout=30)
        project.close()
