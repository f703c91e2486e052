"""The words for a render farm lost under a run named its head twice, in parentheses within
parentheses: "its head at 10.0.0.5:6379 no longer answers (nothing takes connections at
10.0.0.5:6379 (Connection refused))", repeated in every warning that quotes it. The head is
now named once, and the reason follows it."""

from __future__ import annotations

import socket
from types import SimpleNamespace

from studio.worker.cluster import ClusterSpec, ConnectionState
from studio.worker.cluster.backend import RayCluster


def _closed_address() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"  # closed once the socket is


def test_a_lost_head_is_named_once_with_the_reason_after_it() -> None:
    cluster = RayCluster(ClusterSpec(address="10.0.0.5:6379"), SimpleNamespace(is_initialized=lambda: True),
                         owned=False)
    head = _closed_address()
    cluster._head = head
    lost = cluster.head_lost()
    assert lost == f"its head at {head} no longer answers: nothing takes connections (Connection refused)"
    status = cluster.status()
    assert status.state is ConnectionState.LOST and status.summary().count(head) == 1
    assert "((" not in status.summary() and "))" not in status.summary()
