"""Job events and their delivery: callbacks, or an asyncio async iterator.

Callbacks run on the thread that caused the event (the worker thread for everything a
running job does; the caller's thread for ``queued`` and for cancelling a queued job).
The async iterator hands events to its event loop with ``call_soon_threadsafe``, so a
GUI running qasync can ``async for event in service.events()`` on its own thread.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from studio.core.state import CharacterState, StateDeltas
from studio.worker.jobs import Job

log = logging.getLogger(__name__)


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
    predicted: ``deltas``, ``motion_level``, ``state`` (parent state plus deltas),
    ``warnings`` and ``conditioning``. finished: ``take_id``. failed: ``message`` and
    ``hint``. cancelled: ``message``.
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

    @property
    def job_id(self) -> str:
        return self.job.id

    @property
    def node_id(self) -> str | None:
        return self.job.node_id

    @property
    def fraction(self) -> float:
        return self.step / self.total if self.total else 0.0


EventCallback = Callable[[JobEvent], None]


class EventBus:
    """Fan-out of job events to subscribers; a failing subscriber never stops the worker."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._callbacks: list[EventCallback] = []
        self._streams: list[EventStream] = []

    def subscribe(self, callback: EventCallback) -> Callable[[], None]:
        with self._lock:
            self._callbacks.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return unsubscribe

    def publish(self, event: JobEvent) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(event)
            except Exception:  # a subscriber's bug must not kill the worker
                log.exception("job event subscriber %r failed on %s", callback, event.kind)

    def stream(self) -> EventStream:
        stream = EventStream(self)
        with self._lock:
            self._streams.append(stream)
        return stream

    def close_streams(self) -> None:
        """End every open async iterator (the service stopped)."""
        with self._lock:
            streams = list(self._streams)
            self._streams.clear()
        for stream in streams:
            stream.end()

    def _forget(self, stream: EventStream) -> None:
        with self._lock:
            if stream in self._streams:
                self._streams.remove(stream)


_END = object()


class EventStream:
    """``async for event in stream``: events of one service, in order, on one event loop.

    It subscribes when created (so nothing published after ``events()`` returns is lost),
    and ends when the service stops or when ``close()`` is called.
    """

    def __init__(self, bus: EventBus) -> None:
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        self._bus = bus
        self._pending: list[object] = []
        self._queue: asyncio.Queue[object] | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._unsubscribe = bus.subscribe(self._deliver)

    def _deliver(self, item: object) -> None:
        with self._lock:
            if self._loop is None or self._queue is None:
                self._pending.append(item)
                return
            loop, queue = self._loop, self._queue
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            self.close()

    def end(self) -> None:
        self._unsubscribe()
        self._deliver(_END)

    def close(self) -> None:
        self._closed = True
        self._unsubscribe()
        self._bus._forget(self)

    def __aiter__(self) -> EventStream:
        return self

    async def __anext__(self) -> JobEvent:
        if self._closed:
            raise StopAsyncIteration
        with self._lock:
            if self._queue is None:
                self._loop = asyncio.get_running_loop()
                self._queue = asyncio.Queue()
                for item in self._pending:
                    self._queue.put_nowait(item)
                self._pending.clear()
            queue = self._queue
        item = await queue.get()
        if not isinstance(item, JobEvent):  # the end marker
            self.close()
            raise StopAsyncIteration
        return item

    async def aclose(self) -> None:
        self.close()
