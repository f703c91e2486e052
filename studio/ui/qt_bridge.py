"""Qt adapters for the worker's one event path.

The writer thread changes the document and the device threads run jobs; both publish
on the service's one event path (:meth:`GenerationService.subscribe_all`): job events
and document change sets, in order. :class:`WorkerBridge` re-emits them as Qt signals on
the GUI thread. Without a generation service (it could not start) the window still edits
through the writer, and :class:`DocumentBridge` brings the change sets.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from studio.core.changes import ChangeSet
from studio.core.document import Document
from studio.worker.events import DocumentChanged, EventKind, JobEvent, WorkerEvent

COALESCE_MS = 40
"""Worker events are delivered to the GUI in batches at most this often."""


class WorkerBridge(QObject):
    """Re-emits worker events on the GUI thread: :attr:`changed` (a ChangeSet) and
    :attr:`job_event` (a JobEvent), in the order they happened.

    An engine can report dozens of steps a second; redrawing for each would starve the
    event loop. Events are collected and delivered every :data:`COALESCE_MS`, in order,
    with a job's progress events dropped when a later event of that job is in the batch.
    """

    changed = Signal(object)  # ChangeSet
    job_event = Signal(object)  # JobEvent
    _wake = Signal()

    def __init__(self, subscribe: Callable[[Callable[[WorkerEvent], None]], Callable[[], None]],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._pending: list[WorkerEvent | Callable[[], None]] = []
        self._scheduled = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COALESCE_MS)
        self._timer.timeout.connect(self._drain)
        self._wake.connect(self._timer.start, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe: Callable[[], None] | None = subscribe(self._on_event)

    def _on_event(self, event: WorkerEvent | Callable[[], None]) -> None:
        """Called on the worker's threads."""
        with self._lock:
            self._pending.append(event)
            wake = not self._scheduled
            self._scheduled = True
        if wake:
            self._wake.emit()

    def post(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the GUI thread after the events that arrived before it (an
        operation's result comes after its change sets and before later job events)."""
        self._on_event(fn)

    def _drain(self) -> None:
        with self._lock:
            events, self._pending, self._scheduled = self._pending, [], False
        last = {event.job_id: index for index, event in enumerate(events) if isinstance(event, JobEvent)}
        for index, event in enumerate(events):
            if not isinstance(event, JobEvent | DocumentChanged):
                event()
            elif isinstance(event, DocumentChanged):
                self.changed.emit(event.changes)
            elif event.kind is not EventKind.PROGRESS or last[event.job_id] == index:
                self.job_event.emit(event)

    def flush(self) -> None:
        """Deliver what has arrived now (tests, and before a project closes)."""
        self._timer.stop()
        self._drain()

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


class DocumentBridge(QObject):
    """Re-emits the document's change sets as :attr:`changed` on the GUI thread (used
    when there is no generation service)."""

    changed = Signal(object)  # ChangeSet
    _relay = Signal(object)

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        # Always queued, even from the GUI thread: a view never redraws in the middle
        # of the change that caused it.
        self._relay.connect(self.changed.emit, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe: Callable[[], None] | None = document.subscribe(self._on_change)

    def _on_change(self, changes: ChangeSet) -> None:
        self._relay.emit(changes)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
