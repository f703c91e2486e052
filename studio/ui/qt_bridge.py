"""Qt adapters for the pure-Python model: one QObject per event source.

The document calls its listeners on whichever thread made the change (the GUI thread for
edits, the worker thread for new takes); the worker calls its subscribers on the worker
thread. Each adapter re-emits what it hears as a Qt signal. Qt queues a signal emitted on
another thread to the receiver's thread, so every slot runs on the GUI thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from studio.core.changes import ChangeSet
from studio.core.document import Document


class DocumentBridge(QObject):
    """Re-emits the document's change sets as :attr:`changed` on the GUI thread."""

    changed = Signal(object)  # ChangeSet
    _relay = Signal(object)

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        # Always queued, even from the GUI thread: a view never redraws in the middle
        # of the command that changed the tree (the listener runs under the lock).
        self._relay.connect(self.changed.emit, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe: Callable[[], None] | None = document.subscribe(self._on_change)

    def _on_change(self, changes: ChangeSet) -> None:
        self._relay.emit(changes)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


COALESCE_MS = 40
"""Job events are delivered to the GUI in batches at most this often."""


def _job_of(event: Any) -> str:
    return str(getattr(event, "job_id", ""))


def _is_progress(event: Any) -> bool:
    return str(getattr(event.kind, "value", event.kind)) == "progress"


class JobEventBridge(QObject):
    """Re-emits the generation service's job events as :attr:`event` on the GUI thread.

    Two sources: in the studio, the service's asyncio event stream read by a task on the
    qasync loop (:meth:`reading`); without an asyncio loop (tests, scripts), a callback
    subscription whose calls arrive on the worker thread (the constructor).

    An engine can report dozens of steps a second; redrawing for each would starve the
    event loop. Events are collected and delivered every :data:`COALESCE_MS`, in order,
    with a job's progress events dropped when a later event of that job is in the batch.
    """

    job_event = Signal(object)  # studio.worker JobEvent
    _wake = Signal()

    @classmethod
    def reading(cls, stream: Any, loop: asyncio.AbstractEventLoop, parent: QObject | None = None) -> JobEventBridge:
        """A bridge fed by ``async for event in stream`` on ``loop`` (the GUI's qasync loop)."""
        bridge = cls(None, parent)
        bridge._stream = stream
        bridge._task = loop.create_task(bridge._read(stream))
        return bridge

    async def _read(self, stream: Any) -> None:
        async for event in stream:
            self._on_event(event)

    def __init__(self, subscribe: Callable[[Callable[[Any], None]], Callable[[], None]] | None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stream: Any = None
        self._task: asyncio.Task[None] | None = None
        self._lock = threading.Lock()
        self._pending: list[Any] = []
        self._scheduled = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COALESCE_MS)
        self._timer.timeout.connect(self._drain)
        self._wake.connect(self._timer.start, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe: Callable[[], None] | None = subscribe(self._on_event) if subscribe else None

    def _on_event(self, event: Any) -> None:
        """Called on any thread."""
        with self._lock:
            self._pending.append(event)
            wake = not self._scheduled
            self._scheduled = True
        if wake:
            self._wake.emit()

    def _drain(self) -> None:
        with self._lock:
            events, self._pending, self._scheduled = self._pending, [], False
        last = {_job_of(event): index for index, event in enumerate(events)}
        for index, event in enumerate(events):
            if _is_progress(event) and last[_job_of(event)] != index:
                continue
            self.job_event.emit(event)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._task is not None:
            self._task.cancel()
            self._task = None
