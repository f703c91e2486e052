"""Qt adapters for the pure-Python model: one QObject per event source.

The document calls its listeners on whichever thread made the change (the GUI thread for
edits, the worker thread for new takes); the worker calls its subscribers on the worker
thread. Each adapter re-emits what it hears as a Qt signal. Qt queues a signal emitted on
another thread to the receiver's thread, so every slot runs on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

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


class JobEventBridge(QObject):
    """Re-emits the generation service's job events as :attr:`event` on the GUI thread."""

    event = Signal(object)  # studio.worker JobEvent
    _relay = Signal(object)

    def __init__(self, subscribe: Callable[[Callable[[Any], None]], Callable[[], None]],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._relay.connect(self.event.emit, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe: Callable[[], None] | None = subscribe(self._relay.emit)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
