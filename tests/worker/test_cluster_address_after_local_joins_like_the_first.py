"""Render farm "local", then (same window) a cluster's address whose head runs without
authentication: the actors there died before they started ("cancelled before it started
running"). Starting the local instance had left Ray's settings in the studio's environment
(``RAY_AUTH_MODE=token``, ``PYTHONBREAKPOINT``), and Ray kept token authentication on for
the next cluster. Now leaving a cluster puts back the variables Ray changed, so the next
cluster is joined as the first was.

Runs in a fresh process (Ray's settings are per process), with Ray's variables taken out of
its environment, as a studio started by hand has them. The head is a real one
(`ray start --head`, authentication off), in a temporary folder of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import pytest

from studio.worker.cluster import ClusterSpec
from studio.worker.cluster.backend import RayCluster

from .test_cluster_lost_farm_is_joined_again import Head

ray = pytest.importorskip("ray")


def _actor_runs() -> int:
    """Start an actor on the cluster joined now and call it: its process id."""

    @ray.remote(num_cpus=1)
    class Echo:
        def pid(self) -> int:
            return os.getpid()

    return int(ray.get(Echo.remote().pid.remote(), timeout=120))


def _scenario(report: str) -> None:
    """In the child process: local, then the head's address, then leave; write why it failed."""
    head = Head()
    try:
        head.start()
        before = dict(os.environ)
        local = RayCluster.connect(ClusterSpec("local", actors=1, cpus=1))
        assert local.owned and _actor_runs() > 0

        cluster = RayCluster.connect(ClusterSpec(head.address, actors=1, connect_timeout_s=30))
        assert cluster.owned
        joined = ray.get_runtime_context().gcs_address
        assert joined.endswith(f":{head.port}"), (joined, head.address)  # the head, not the local instance
        assert _actor_runs() > 0
        assert os.environ.get("RAY_AUTH_MODE") == before.get("RAY_AUTH_MODE")

        cluster.leave()
        assert dict(os.environ) == before
    except BaseException:
        Path(report).write_text(traceback.format_exc())
        raise SystemExit(1) from None
    finally:
        if ray.is_initialized():
            ray.shutdown()
        head.close()


def test_an_address_without_authentication_after_local_runs_actors(tmp_path: Path) -> None:
    report = tmp_path / "failure.txt"
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_") and key != "PYTHONBREAKPOINT"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    folder = tempfile.mkdtemp(prefix="kr", dir="/tmp")  # the local instance's: short, Ray's socket paths are limited
    env["RAY_TMPDIR"] = folder
    code = f"from {__name__} import _scenario; _scenario({str(report)!r})"
    try:
        done = subprocess.run([sys.executable, "-c", code], env=env, timeout=300, capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert done.returncode == 0, report.read_text() if report.exists() else done.stderr.decode()[-3000:]


def test_only_what_ray_changed_is_put_back_and_not_what_changed_since() -> None:
    from studio.worker.cluster.environment import EnvironmentChanges

    before = {"HOME": "/home/a", "PYTHONBREAKPOINT": "pdb.set_trace", "USER_SETTING": "1"}
    after = {"HOME": "/home/a", "PYTHONBREAKPOINT": "ray.util.rpdb._driver_set_trace", "RAY_AUTH_MODE": "token",
             "USER_SETTING": "1"}
    changes = EnvironmentChanges.between(before, after)
    now = {**after, "RAY_AUTH_MODE": "disabled", "LATER": "x"}  # the user chose a mode since
    assert changes.restore(now) == ["PYTHONBREAKPOINT"]
    assert now == {**before, "RAY_AUTH_MODE": "disabled", "LATER": "x"}
