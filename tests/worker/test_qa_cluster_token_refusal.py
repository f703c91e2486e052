"""Joining, by HOST:PORT, a head that asks for an authentication token this process lacks.

Ray only says "Failed to connect to Ray cluster at HOST:PORT" after its wait (the reason,
"Authentication token is missing or incorrect", is in its log alone), and the studio told
the user to check the address, which was right. Now one call to the head finds the refusal,
and the error says that the head asks for the cluster's token, with how to give it.

The head is a real one (`ray start --head` with token authentication) in a private
temporary folder, ended with its process group."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core.errors import StudioError
from studio.worker.cluster.backend import TOKEN_HINT, RayCluster, head_refuses_token
from studio.worker.cluster.environment import reload_ray_settings
from studio.worker.cluster.spec import parse_cluster

ray = pytest.importorskip("ray")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


@pytest.fixture
def head_with_token() -> Iterator[str]:
    folder = Path(tempfile.mkdtemp(prefix="kt", dir="/tmp"))  # short: Ray's socket paths are limited
    port = _free_port()
    env = {**os.environ, "RAY_TMPDIR": str(folder), "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16)}
    ray_cli = Path(sys.executable).with_name("ray")
    start = subprocess.Popen([str(ray_cli), "start", "--head", f"--port={port}", "--include-dashboard=false",
                              "--num-cpus=1", "--disable-usage-stats"], env=env, cwd=folder,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        start.wait(90)
        deadline = time.monotonic() + 30
        while not _answers(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        if not _answers(port):
            pytest.skip("`ray start --head` did not start here")
        yield f"127.0.0.1:{port}"
    finally:
        try:
            os.killpg(start.pid, signal.SIGKILL)  # the head's processes: only the ones this test started
        except ProcessLookupError:
            pass
        shutil.rmtree(folder, ignore_errors=True)


def test_a_head_that_asks_for_a_token_is_said_to(head_with_token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if ray.is_initialized():
        pytest.skip("this process is already on a Ray cluster")
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    monkeypatch.delenv("RAY_AUTH_TOKEN", raising=False)
    reload_ray_settings(ray)  # Ray caches its settings in the process: read them without the token
    try:
        assert head_refuses_token(head_with_token)
        began = time.monotonic()
        with pytest.raises(StudioError) as refused:
            RayCluster.connect(parse_cluster(head_with_token, connect_timeout_s=2))
        assert refused.value.hint == TOKEN_HINT
        assert "asks for the cluster's authentication token" in refused.value.message
        assert head_with_token in refused.value.message or "Failed to connect" in refused.value.message
        assert time.monotonic() - began < 20
        assert not ray.is_initialized()
    finally:
        monkeypatch.undo()
        reload_ray_settings(ray)


def test_a_closed_port_is_no_token_refusal() -> None:
    began = time.monotonic()
    assert not head_refuses_token(f"127.0.0.1:{_free_port()}", timeout_s=2)
    assert time.monotonic() - began < 3
