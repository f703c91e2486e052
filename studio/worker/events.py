"""What the worker tells the window and the command line: typed, light events.

Importing this module imports no numpy and no torch (a test checks it), so the window
imports it directly and compares enums, never strings. Delivery is in
:mod:`studio.worker.event_bus`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.core.changes import ChangeSet
from studio.core.state import CharacterState, StateDeltas
from studio.worker.jobs import Job, JobKind, JobStatus
from studio.worker.progress import PreviewFrames

__all__ = ["ChangeSet", "DocumentChanged", "EventKind", "Job", "JobEvent", "JobKind", "JobStatus", "PreviewFrames",
           "WorkerEvent"]


class EventKind(StrEnum):
    QUEUED = "queued"
    """A job entered the queue (new, retried or re-queued)."""
    STARTED = "started"
    PROGRESS = "progress"
    PREDICTED = "predicted"
    """The prediction is ready: the new state can be shown before the clip exists."""
    FINISHED = "finished"
    FAILED = "failed"
    CANCELLED = "cancelled"
    INTERRUPTED = "interrupted"
    """The service stopped with ``interrupt_running``: the job will run again when re-queued."""
    UPDATED = "updated"
    """A queued job's place in the queue changed (move, priority)."""


@dataclass(frozen=True, slots=True)
class JobEvent:
    """Something that happened to a job. ``job`` is a snapshot taken at that moment.

    progress: ``step``/``total`` count the whole job (prediction, decoding and writing) on
    a fixed scale and never go back; ``stage`` with ``stage_step``/``stage_total`` are the
    engine's own numbers for the current stage. ``eta_s`` is the estimated seconds left.
    ``preview``: the newest preview of the clip being made, from engines that send them (every
    progress event after the first carries the newest one; a new one is a new object).
    predicted: ``deltas``, ``motion_level``, ``state`` (parent state plus deltas),
    ``warnings`` and ``conditioning``. finished: ``take_id``, and in ``message`` where the
    job ran when its host says more than its device (a cluster's actor). failed: ``message`` and
    ``hint``. cancelled: ``message``. started: ``where`` the job runs (its device, such as
    ``cuda:1``, or the render farm's node and actor).
    """

    kind: EventKind
    job: Job
    step: int = 0
    total: int = 0
    eta_s: float | None = None
    stage: str = ""
    stage_step: int = 0
    stage_total: int = 0
    message: str = ""
    hint: str = ""
    take_id: str = ""
    deltas: StateDeltas | None = None
    motion_level: int | None = None
    state: CharacterState | None = None
    warnings: tuple[str, ...] = ()
    conditioning: Mapping[str, Any] = field(default_factory=dict)
    preview: PreviewFrames | None = None
    where: str = ""

    @property
    def job_id(self) -> str:
        return self.job.id

    @property
    def node_id(self) -> str | None:
        return self.job.node_id

    @property
    def fraction(self) -> float:
        return self.step / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class DocumentChanged:
    """The writer changed the document: views redraw what ``changes`` names."""

    changes: ChangeSet


WorkerEvent = JobEvent | DocumentChanged
"""Everything that travels the one path from the worker to the window."""
