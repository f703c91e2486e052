"""Read the document without ever blocking the GUI thread on the worker.

The worker applies each new take under the document's lock, and that includes the SQLite
commit (an fsync). If the GUI waited for the lock it would freeze for as long. Instead,
view updates are queued here and run when the lock can be taken at once; otherwise they
are retried a few milliseconds later.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

RETRY_MS = 4


class DeferredReader(QObject):
    def __init__(self, lock: threading.RLock, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.lock = lock
        self._queue: list[Callable[[], object]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RETRY_MS)
        self._timer.timeout.connect(self.drain)

    def run(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` with the lock held: now if it is free, else as soon as it is."""
        self._queue.append(fn)
        self.drain()

    def drain(self) -> None:
        if not self._queue:
            return
        if not self.lock.acquire(blocking=False):
            self._timer.start()
            return
        try:
            while self._queue:
                self._queue.pop(0)()
        finally:
            self.lock.release()

    @property
    def pending(self) -> int:
        return len(self._queue)
