"""The one writer: a thread that makes every change to a project's document and database.

The window and the command line never change the story themselves: they submit an
operation (a document command, a job-queue change, or both) and get a future of its
result. While a writer is attached, ``project.apply`` from any other thread runs on the
writer's thread too (the caller waits), so nothing can change the tree behind the writer's
back. Readers take ``project.tree``: an immutable snapshot, no lock.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

from studio.core.changes import ChangeSet
from studio.core.commands import Command
from studio.storage.project import Project

log = logging.getLogger(__name__)

T = TypeVar("T")


class _Stop:
    pass


_STOP = _Stop()


class Writer:
    """Runs operations one at a time, in submission order, on its own thread."""

    def __init__(self, project: Project, name: str = "kamishibai-writer") -> None:
        self.project = project
        self._name = name
        self._queue: queue.SimpleQueue[tuple[Callable[[], object], Future[object]] | _Stop] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        project.document.writer = self.call

    # -- submitting ---------------------------------------------------------------------

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        """Queue ``fn`` to run on the writer thread; its result (or error) comes in the future."""
        future: Future[T] = Future()
        self._ensure_thread()
        self._queue.put((fn, future))  # type: ignore[arg-type]  # Future is invariant; results are read as T
        return future

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the writer thread and wait for it (directly when already there)."""
        if self.on_writer_thread():
            return fn()
        return self.submit(fn).result()

    def apply(self, command: Command, *, undoable: bool = True) -> Future[ChangeSet]:
        """Apply a document command on the writer thread."""
        document = self.project.document
        return self.submit(lambda: document.apply(command, undoable=undoable))

    def undo(self) -> Future[ChangeSet | None]:
        return self.submit(self.project.document.undo)

    def redo(self) -> Future[ChangeSet | None]:
        return self.submit(self.project.document.redo)

    def on_writer_thread(self) -> bool:
        return self._thread is not None and threading.current_thread() is self._thread

    # -- the thread ---------------------------------------------------------------------

    def _ensure_thread(self) -> None:
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if isinstance(item, _Stop):
                return
            fn, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn()
            except BaseException as error:  # the caller gets it; the writer keeps serving
                future.set_exception(error)
            else:
                future.set_result(result)

    def stop(self, timeout: float | None = 30.0) -> None:
        """Run what was submitted, then end the thread (a later operation starts a new one)."""
        with self._start_lock:
            thread = self._thread
            if thread is None or not thread.is_alive() or thread is threading.current_thread():
                return
            self._queue.put(_STOP)
        thread.join(timeout)

    def detach(self) -> None:
        """Stop, and let changes run on the caller's thread again."""
        self.stop()
        if self.project.document.writer == self.call:
            self.project.document.writer = None
