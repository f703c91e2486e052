"""``--cluster auto`` (Render farm: auto) when the head this machine joined no longer runs.

A head that was stopped by a kill, that crashed, or a machine that restarted leaves its
address behind in Ray's temporary folder. Ray then tried it for the whole timeout, and the
studio said "no Ray cluster answered within 10 s" with a hint to check "the address", which
the user never gave. Now the head is looked at first: the error comes at once, names the
address, and says to start the cluster again."""

from __future__ import annotations

import importlib
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core.errors import StudioError
from studio.worker.cluster.backend import AUTO_GONE_HINT, RayCluster, auto_address
from studio.worker.cluster.spec import parse_cluster

ray = pytest.importorskip("ray")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed once the socket is: nothing takes connections there


def _no_heads() -> list[str]:
    return []


_no_heads.cache_clear = lambda: None  # type: ignore[attr-defined]  # as Ray's own (cached) scan has


@pytest.fixture
def ray_folder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Ray's temporary folder, private to the test; Ray's scan for heads running on this
    machine sees none (with one running, ``auto`` names it, whatever the folder says)."""
    folder = Path(tempfile.mkdtemp(prefix="ka", dir="/tmp"))
    (folder / "ray").mkdir()
    monkeypatch.setenv("RAY_TMPDIR", str(folder))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(importlib.import_module("ray._private.services"), "find_gcs_addresses", _no_heads)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _join_auto() -> StudioError:
    if ray.is_initialized():
        pytest.skip("this process is already on a Ray cluster")
    began = time.monotonic()
    with pytest.raises(StudioError) as refused:
        RayCluster.connect(parse_cluster("auto", connect_timeout_s=8))
    assert time.monotonic() - began < 4, "the gone head was waited for"
    assert not ray.is_initialized()
    return refused.value


def test_a_head_left_behind_by_ray_start_is_said_gone_at_once(ray_folder: Path) -> None:
    head = f"127.0.0.1:{_closed_port()}"
    (ray_folder / "ray" / "ray_current_cluster").write_text(head)
    assert auto_address() == head
    refused = _join_auto()
    assert head in refused.message and "ray start --head" in refused.message
    assert refused.hint == AUTO_GONE_HINT and "start it again" in refused.hint


def test_a_head_named_by_ray_address_is_said_gone_at_once(ray_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    head = f"127.0.0.1:{_closed_port()}"
    monkeypatch.setenv("RAY_ADDRESS", head)
    refused = _join_auto()
    assert head in refused.message and refused.hint == AUTO_GONE_HINT


def test_no_cluster_at_all_is_still_said_as_before(ray_folder: Path) -> None:
    assert auto_address() == ""
    refused = _join_auto()
    assert "no Ray cluster runs on this machine" in refused.message and "--address" not in refused.message
    assert "ray start --head" in refused.hint
