"""The order the queue runs its jobs in and shows them.

The job types themselves live in :mod:`studio.core.jobs` (the job store in ``storage``
reads and writes them); they are re-exported here for the worker's callers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from studio.core.jobs import SEED_LIMIT, Job, JobKind, JobStatus, check_seed, new_seed
from studio.storage.job_store import UnreadableSettings

__all__ = [
    "SEED_LIMIT",
    "Job",
    "JobKind",
    "JobStatus",
    "check_seed",
    "display_order",
    "new_seed",
    "run_order_key",
    "settings_problem",
]


def run_order_key(job: Job) -> tuple[int, int]:
    """Higher priority first, then first in, first out."""
    return (-job.priority, job.sequence)


def display_order(jobs: Iterable[Job]) -> list[Job]:
    """Running, then queued in run order, then interrupted, then finished (oldest first)."""
    rank = {
        JobStatus.RUNNING: 0,
        JobStatus.QUEUED: 1,
        JobStatus.INTERRUPTED: 2,
        JobStatus.DONE: 3,
        JobStatus.FAILED: 3,
        JobStatus.CANCELLED: 3,
    }

    def key(job: Job) -> tuple[int, int, int]:
        if job.status is JobStatus.QUEUED:
            return (rank[job.status], -job.priority, job.sequence)
        return (rank[job.status], 0, job.sequence)

    return sorted(jobs, key=key)


def settings_problem(job: Job) -> str:
    """Why ``job``'s stored settings can't be used ("" when they are names with values):
    a row written by another program may hold any JSON there, such as a list."""
    if isinstance(job.settings, Mapping):
        return ""
    if isinstance(job.settings, UnreadableSettings):
        text = str(job.settings)
        return f"stored settings are not JSON ({text[:57] + '...' if len(text) > 60 else text})"
    try:
        shown = json.dumps(job.settings, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        shown = repr(job.settings)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"stored settings are {shown}, not an object"
