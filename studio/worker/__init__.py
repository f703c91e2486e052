"""Generation jobs: a persistent queue, the one writer of the document, one worker
thread and engine process per device, progress with ETA, cancel, retry, OOM handling.
No Qt.

Importing the package (or :mod:`studio.worker.events`) is light: the service and what it
pulls in (numpy, the engines' hosts) are imported when first named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from studio.worker.events import DocumentChanged, EventKind, JobEvent, WorkerEvent
from studio.worker.jobs import Job, JobKind, JobStatus
from studio.worker.progress import PROGRESS_SCALE

if TYPE_CHECKING:
    from studio.worker.engine_host import EngineStatus, HostMode
    from studio.worker.event_bus import EventStream
    from studio.worker.service import GenerationService
    from studio.worker.writer import Writer

__all__ = [
    "PROGRESS_SCALE",
    "DocumentChanged",
    "EngineStatus",
    "EventKind",
    "EventStream",
    "GenerationService",
    "HostMode",
    "Job",
    "JobEvent",
    "JobKind",
    "JobStatus",
    "WorkerEvent",
    "Writer",
]

_LAZY = {
    "EngineStatus": "studio.worker.engine_host",
    "HostMode": "studio.worker.engine_host",
    "EventStream": "studio.worker.event_bus",
    "GenerationService": "studio.worker.service",
    "Writer": "studio.worker.writer",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'studio.worker' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
