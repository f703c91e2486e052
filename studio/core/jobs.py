"""Jobs: what the queue holds (the value types; the run order is the worker's).

A job is a frozen value: every change (queued -> running -> done) makes a new one, so a
snapshot handed to another thread (in an event, or by ``jobs()``) never changes under it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.core.errors import StudioError

SEED_LIMIT = 2**31
"""Seeds are 31-bit so that every engine (and numpy, torch, JSON) can take them as is."""


def new_seed() -> int:
    return secrets.randbelow(SEED_LIMIT)


def check_seed(seed: object) -> None:
    """Refuse a seed outside 0..2**31-1 now, before anything is written for it."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise StudioError(f"The seed {seed!r} is out of range: a seed is a whole number from 0 to {SEED_LIMIT - 1}.")


class JobStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"
    """It was running when the app stopped or crashed; it runs again only when re-queued."""

    @property
    def finished(self) -> bool:
        return self in (JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED)


class JobKind(StrEnum):
    GENERATE = "generate"
    """Generate one take of a node (persisted in the project database)."""
    TASK = "task"
    """Any function run on the worker thread (exports); in memory only."""


@dataclass(frozen=True, slots=True)
class Job:
    """One unit of queued work.

    ``sequence`` gives first-in-first-out order among jobs of equal ``priority`` (higher
    priority runs first). ``seed`` is fixed when the job is queued, so a job re-run after a
    crash makes the same take. ``settings`` holds only what the user chose; the engine's
    defaults are merged in when the job runs. ``progress`` (0..1) and ``eta_s`` are live
    values of a running job and are not stored.
    """

    id: str
    kind: JobKind
    node_id: str | None
    engine: str = ""
    seed: int = 0
    settings: Mapping[str, Any] = field(default_factory=dict)
    priority: int = 0
    status: JobStatus = JobStatus.QUEUED
    sequence: int = 0
    created_at: str = ""
    started_at: str = ""
    finished_at: str = ""
    error: str = ""
    hint: str = ""
    take_id: str = ""
    depends_on: str | None = None
    label: str = ""
    retry_of: str | None = None
    progress: float = 0.0
    eta_s: float | None = None

    @property
    def finished(self) -> bool:
        return self.status.finished

    @property
    def persistent(self) -> bool:
        return self.kind is JobKind.GENERATE
