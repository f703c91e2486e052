"""Delivery of worker events: callbacks, or an asyncio async iterator.

Callbacks run on the thread that caused the event (the writer or a device's thread for
what running jobs do; the caller's thread for some queue changes). The async iterator
hands events to its event loop with ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from studio.worker.events import DocumentChanged, JobEvent, WorkerEvent

log = logging.getLogger(__name__)


EventCallback = Callable[[WorkerEvent], None]


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

    def publish(self, event: WorkerEvent) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(event)
            except Exception:  # a subscriber's bug must not kill the worker
                log.exception("worker event subscriber %r failed on %r", callback, type(event).__name__)

    def stream(self) -> EventStream:
        """An async iterator of job events."""
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


def only_jobs(callback: Callable[[JobEvent], None]) -> EventCallback:
    """``callback`` called for job events only (not for document changes)."""
    def deliver(event: WorkerEvent) -> None:
        if isinstance(event, JobEvent):
            callback(event)

    return deliver


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
        self._unsubscribe = bus.subscribe(only_jobs(self._deliver))

    def _deliver(self, item: object) -> None:  # a job event, or the end marker
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

    async def __anext__(self) -> WorkerEvent:
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
        if not isinstance(item, JobEvent | DocumentChanged):  # the end marker
            self.close()
            raise StopAsyncIteration
        return item

    async def aclose(self) -> None:
        self.close()
