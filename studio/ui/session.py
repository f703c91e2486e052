"""One open project in the window: the project, its generation service and the Qt bridges.

The generation service is optional: if ``studio.worker`` can't be imported (or fails to
start) the studio still opens, edits and plays; generating says why it can't.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal

from studio.core.errors import StudioError
from studio.engines.base import EngineVocabulary
from studio.storage import Project
from studio.ui.job_tracker import JobTracker
from studio.ui.qt_bridge import DocumentBridge, WorkerBridge
from studio.ui.services import AppServices
from studio.ui.settings import StudioSettings, usable_engine_values
from studio.worker.events import JobStatus

if TYPE_CHECKING:
    from studio.worker import GenerationService, Writer

log = logging.getLogger(__name__)

EditKind = Literal["", "edit", "history"]
"""How :meth:`ProjectSession.submit` counts an operation: "edit" (a change that adds an undo
step), "history" (an undo or a redo), or "" (not counted)."""


def unexpected_error(error: BaseException) -> StudioError:
    """The user's word for an operation that failed with a bug rather than a refusal.

    A document change is made whole or not at all (its patch is stored before the tree
    moves on), so what was there before the failed operation is kept.
    """
    return StudioError(f"Something unexpected went wrong: {type(error).__name__}: {error}",
                       "The project keeps everything made before it; this operation was not completed. "
                       "The details are in the log.")


class ProjectSession(QObject):
    """The window's side of one project: it reads snapshots and submits operations.

    Every change runs on the worker's writer thread (:meth:`submit`); its result comes
    back on the GUI thread. Views redraw from :attr:`changed` (change sets) and the
    tracker (job events), both fed by the one event path from the worker.
    """

    changed = Signal(object)  # ChangeSet, on the GUI thread
    edits_in_flight_changed = Signal()
    """An edit was sent to the writer, or one sent before has ended (see :attr:`edits_in_flight`)."""
    _done = Signal(object, object)  # (future, finish): an operation ended

    def __init__(self, project: Project, settings: StudioSettings, services: AppServices,
                 parent: QObject | None = None, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """``loop``: the GUI's asyncio (qasync) loop, if it runs one (events need none)."""
        super().__init__(parent)
        from studio.worker.writer import Writer  # the writer, not the service: no numpy yet

        self.loop = loop
        self.project = project
        self.settings = settings
        self.writer: Writer = Writer(project)
        self.tracker = JobTracker(self)
        self.service: GenerationService | None = None
        self.service_error = ""
        self.events: WorkerBridge | None = None
        self.bridge: DocumentBridge | None = None
        self.services = services
        self.registry = services.registry
        self.error_handler: Callable[[StudioError], None] | None = None
        """Where a refused operation's error goes (the workspace shows it)."""
        self.edits_in_flight: dict[str, int] = {"edit": 0, "history": 0}
        """Operations sent to the writer whose end the window has not heard of yet, by kind:
        "edit" (a change that adds an undo step) and "history" (an undo or a redo). Undo is
        on while an edit is in flight, Redo while an undo is: the window hears of a change a
        moment after it is made, and a Ctrl+Z pressed in that moment must not be lost."""
        self._done.connect(self._call_finish, Qt.ConnectionType.QueuedConnection)
        self._start_service()

    def _start_service(self) -> None:
        from studio.worker import GenerationService, HostMode  # numpy and friends: not before a project opens

        engine = self.settings.engine or self.services.default_engine
        if engine not in self.registry.names() and self.registry.names():
            engine = self.registry.names()[0]
        if self.settings.device_problem():
            log.warning("The device setting was refused (the CPU is used): %s", self.settings.device_problem())
        if self.settings.devices_problem():
            log.warning("The device list was refused (one worker runs, on the device): %s",
                        self.settings.devices_problem())
        try:
            configs = self.services.device_configs(self.settings.devices, self.settings.device,
                                                   self.settings.checkpoint_dirs(), threads=self._cpu_threads())
            self.service = GenerationService(self.project, self.registry, devices=configs,
                                             default_engine=engine, auto_requeue=self.settings.auto_requeue,
                                             hosts=HostMode(self.services.engine_host), writer=self.writer,
                                             cluster=self._cluster_spec(), connect_in_background=True)
        except StudioError as error:
            self.service_error = error.message
            self.bridge = DocumentBridge(self.project.document, self)
            self.bridge.changed.connect(self.changed.emit)
            return
        self.events = WorkerBridge(self.service.subscribe_all, self)
        self.events.changed.connect(self.changed.emit)
        self.events.job_event.connect(self.tracker.on_event)
        self.service.set_reroll_selects(self.settings.reroll_selects)
        for job in self.service.jobs():
            self.tracker.add_existing(job)
        self.service.start()

    def _cpu_threads(self) -> int | None:
        """The CPU threads setting for this project's engines (None: automatic); a value the
        settings refused is logged here and said in Settings."""
        problem = self.settings.cpu_threads_problem()
        if problem:
            log.warning("The CPU threads setting was refused (automatic is used): %s", problem)
        return self.settings.cpu_threads

    def _cluster_spec(self) -> Any:
        """The Ray cluster the settings name (None: this machine's devices). The service joins
        it on a thread of its own; without Ray, or at a wrong address, the cluster status
        under the queue says why (with the install command), and queued jobs wait."""
        from studio.worker.cluster import saved_cluster

        # a malformed saved address is kept: the cluster status says what is wrong with it,
        # where refusing it here would switch generation off with no word of the cluster
        return saved_cluster(self.settings.cluster, self.settings.cluster_actors)

    def connect_again(self) -> bool:
        """Join the render farm again after joining failed, at the address the settings give
        now (fixed there meanwhile, or Ray installed since). False: nothing to retry."""
        if self.service is None:
            return False
        spec = self._cluster_spec()
        return spec is not None and self.service.connect_again(spec)

    def submit(self, operation: Callable[[], Any], then: Callable[[Any], None] | None = None,
               kind: EditKind = "") -> None:
        """Run ``operation`` on the writer thread; ``then(result)`` runs on the GUI thread
        after it (a StudioError goes to :attr:`error_handler` instead). ``kind``: "edit" or
        "history" to count it in :attr:`edits_in_flight` until it ends."""
        future = self.writer.submit(operation)
        if kind:  # counted down in _finish, which runs on this thread: never before this line
            self.edits_in_flight[kind] += 1
            self.edits_in_flight_changed.emit()
        events = self.events
        finish = functools.partial(self._finish, then=then, kind=kind)
        if events is not None:  # in order with the worker's events
            future.add_done_callback(lambda done: events.post(lambda: finish(done)))
        else:
            future.add_done_callback(lambda done: self._done.emit(done, finish))

    def _call_finish(self, future: Future[Any], finish: Callable[[Future[Any]], None]) -> None:
        finish(future)

    def _finish(self, future: Future[Any], then: Callable[[Any], None] | None, kind: EditKind = "") -> None:
        try:
            self._deliver(future, then)
        finally:
            if kind:
                self.edits_in_flight[kind] -= 1
                if shiboken6.isValid(self):  # an edit that ends after its project closed: nobody listens
                    self.edits_in_flight_changed.emit()

    def _deliver(self, future: Future[Any], then: Callable[[Any], None] | None) -> None:
        error = future.exception()
        if isinstance(error, StudioError):
            self._refuse(error)
            return
        if error is not None:
            # a bug, not bad input: the traceback goes to the log, and the user still hears of it
            log.error("an operation failed", exc_info=error)
            self._refuse(unexpected_error(error))
            return
        if then is not None:
            then(future.result())

    def _refuse(self, error: StudioError) -> None:
        """Show ``error`` where the window shows errors (logged when no window listens)."""
        if self.error_handler is not None:
            self.error_handler(error)
        else:
            log.warning("%s", error.message)

    @property
    def path(self) -> Path:
        return self.project.path

    @property
    def engine(self) -> str:
        """The engine new takes use."""
        name = self.settings.engine
        return name if name in self.registry else self.services.default_engine

    def engine_vocabulary(self) -> EngineVocabulary:
        """What the current engine understands (from its catalogue entry: nothing is imported)."""
        return self.registry.vocabulary(self.engine) if self.engine in self.registry else EngineVocabulary()

    def job_settings(self, engine: str | None = None) -> dict[str, Any]:
        """The settings the user changed for ``engine`` (default: the current one)."""
        name = engine or self.engine
        values = self.settings.engine_values(name)
        if name not in self.registry:
            return values
        kept, problems = usable_engine_values(self.registry.info(name).settings, values)
        for problem in problems:  # Settings shows the same values, and says why
            log.warning("A saved %s setting was refused (the engine's default is used): %s", name, problem)
        return kept

    def require_service(self) -> Any:
        if self.service is None:
            raise StudioError(self.service_error or "Generation is not available.",
                              hint="Install the studio with its engines, then reopen the project.")
        return self.service

    def settle(self) -> None:
        """Wait until the operations submitted so far have run (before closing: a job
        queued a moment ago counts), and deliver their events."""
        self.writer.call(lambda: None)
        if self.events is not None:
            self.events.flush()

    def active_jobs(self) -> list[Any]:
        """Queued and running jobs, including those of operations already submitted."""
        if self.service is None:
            return []
        self.settle()
        return [j for j in self.service.jobs() if j.status in (JobStatus.QUEUED, JobStatus.RUNNING)]

    def close(self, policy: str = "keep") -> None:
        """Stop the worker: ``cancel`` cancels every job; ``keep`` leaves queued jobs queued and
        stops a running one within one engine step, as interrupted (it runs again with its seed:
        Retry, or the auto re-queue setting), rather than hold the window until it ends."""
        if self.service is not None:
            if policy == "cancel":
                for job in self.active_jobs():
                    try:
                        self.service.cancel(job.id)
                    except StudioError:
                        pass
            else:
                self.service.pause()
            self.service.stop(cancel_running=policy == "cancel", interrupt_running=policy != "cancel", timeout=15)
        else:
            self.writer.stop()
        if self.events is not None:
            self.events.close()
        if self.bridge is not None:
            self.bridge.close()
        self.writer.detach()
        self.project.close()
