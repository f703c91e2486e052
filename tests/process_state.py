"""Test helpers that read a process's state from ``/proc`` (Linux)."""

from __future__ import annotations


def running(pid: int) -> bool:
    """Whether ``pid`` still runs: a zombie waiting for its parent to reap it does not, nor
    a process that is gone (or a system without ``/proc``)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False
