"""Generation jobs: a persistent queue, one worker thread and engine process per device,
progress with ETA,
cancel, retry, OOM handling. No Qt: the GUI reads events through ``events()`` (asyncio,
via qasync), the CLI through ``subscribe``.
"""

from studio.worker.engine_host import EngineStatus, HostMode
from studio.worker.events import EventKind, EventStream, JobEvent
from studio.worker.jobs import Job, JobKind, JobStatus
from studio.worker.progress import PROGRESS_SCALE
from studio.worker.service import GenerationService

__all__ = [
    "PROGRESS_SCALE",
    "EngineStatus",
    "EventKind",
    "EventStream",
    "GenerationService",
    "HostMode",
    "Job",
    "JobEvent",
    "JobKind",
    "JobStatus",
]
