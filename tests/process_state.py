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


def engine_process_of(pid: int) -> int | None:
    """The engine process the command ``pid`` started (its multiprocessing spawn child), or
    None before it starts (or without ``/proc``)."""
    from pathlib import Path

    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid and b"spawn_main" in command:
            return int(entry.name)
    return None
