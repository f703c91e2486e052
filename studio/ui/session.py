"""One open project in the window: the project, its generation service and the Qt bridges.

The generation service is optional: if ``studio.worker`` can't be imported (or fails to
start) the studio still opens, edits and plays; generating says why it can't.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal

from studio.core.errors import StudioError
from studio.engines.base import EngineVocabulary
from studio.storage import DB_NAME, Project
from studio.storage import errors as storage_errors
from studio.storage.errors import ProjectDamagedError, ProjectReadOnlyError, unwritable_folder_error
from studio.storage.lock import LockHolder, ProjectLockedError, clean_holder_text, holder_of, writer_is_live
from studio.storage.project import normalise_project_path
from studio.storage.staging import StagingDir, sweep
from studio.ui.job_tracker import JobTracker
from studio.ui.qt_bridge import DocumentBridge, WorkerBridge
from studio.ui.services import AppServices
from studio.ui.settings import StudioSettings, usable_engine_values
from studio.worker.events import JobStatus

if TYPE_CHECKING:
    from studio.core.tree import StoryTree
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


SAVE_COPY_TODO = "To change it, use File › Save a copy… (the copy, in a folder you can write to, opens for editing)."
"""What every read-only line ends with: the way to a project that can be changed."""


DiskStamp = tuple[tuple[int, int] | None, ...]


def database_stamp(folder: Path) -> DiskStamp:
    """The modification time and size of the project's database and of its write-ahead log
    (None for one that isn't there): another process's commit changes one of them."""
    stamps: list[tuple[int, int] | None] = []
    for name in (DB_NAME, f"{DB_NAME}-wal"):
        try:
            info = os.stat(folder / name)
        except OSError:
            stamps.append(None)
        else:
            stamps.append((info.st_mtime_ns, info.st_size))
    return tuple(stamps)


@dataclass(frozen=True)
class ReadOnlyReason:
    """Why the window opened a project for reading only, in the user's words.

    The window opens such a project rather than refusing it: the story can still be read,
    played, compared and exported; every change is refused with :meth:`refusal`."""

    why: str
    """What keeps it from being written: "sample.kamishibai is on a read-only disk"."""
    todo: str
    """What the user can do about it (always: save a copy)."""
    locked: bool = False
    """Held by another writer: it can be opened for editing once that one closes it."""
    damaged: bool = False
    """Its database was found damaged while it was open: a copy is made from the story the
    window holds (see :mod:`studio.ui.damaged_project`)."""

    def line(self) -> str:
        """The lasting line the window shows while the project is open."""
        return f"Read-only: {self.why}. {self.todo}"

    def off_tip(self) -> str:
        """Why an action that would change the project is off."""
        return f"Read-only: {self.why}"

    def refusal(self, what: str) -> StudioError:
        """The error for a change asked for anyway (``what``: "choose a take")."""
        return StudioError(f"Can't {what}: {self.why}; the project was opened read-only.", hint=self.todo)


def _on_read_only_disk(folder: Path) -> bool:
    """Whether ``folder`` is on a file system mounted read-only (a DVD, a locked USB stick)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): said as a folder that can't be written
        return False


def unwritable_reason(folder: Path) -> ReadOnlyReason:
    """The reason for a project ``folder`` (or its database) that can't be written."""
    file = storage_errors.read_only_file(folder)
    if _on_read_only_disk(folder):
        why = f"{folder.name} is on a read-only disk"
    elif file is not None:
        why = f"{file.name} of {folder.name} is a read-only file"
    else:
        why = f"{folder.name} is in a folder this user can't write to"
    return ReadOnlyReason(why, SAVE_COPY_TODO)


STUDIO_WINDOW = "Kamishibai Studio window"
"""What a studio window's lock file names its holder (``the Kamishibai Studio window``)."""


OTHER_WINDOW = "This project is already open in another window"
"""The read-only reason of a project another window of this process holds for writing."""


def held_in_this_process(folder: Path) -> bool:
    """Whether ``folder``'s writer is this process (its lock file names this process's pid on
    this host): the storage refuses a second writer here without naming the first."""
    holder = holder_of(folder)
    return (holder is not None and holder.pid == os.getpid()
            and holder.host == clean_holder_text(socket.gethostname()))


def locked_reason(folder: Path, holder: LockHolder | None, message: str = "") -> ReadOnlyReason:
    """The reason for a project ``folder`` that another writer holds (``holder``, as its
    lock file says; ``message``: the storage's words when the file does not say)."""
    first = "Wait for it to finish"
    if holder is None and held_in_this_process(folder):  # another window of this studio has it
        why, first = OTHER_WINDOW, "Close it there"
    elif holder is not None:
        details = [f"pid {holder.pid}" if holder.pid > 0 else "process number unknown"]
        if holder.host and holder.host != clean_holder_text(socket.gethostname()):
            details.append(f"on {holder.host}")
        shown = ", ".join(details)
        if STUDIO_WINDOW in holder.command:
            why = f"{folder.name} is open in another Kamishibai Studio ({shown})"
            first = "Close it there"
        else:  # a command (`kamishibai reroll`), or another program that wrote the lock file
            why = f"{folder.name} is being changed by {holder.command or 'another Kamishibai program'} ({shown})"
    else:
        why = message.rstrip(".") or f"{folder.name} is open for writing in another Kamishibai program"
    todo = (f"{first}, then use File › Reopen for editing; or use File › Save a copy… to work on a copy in a "
            "folder you can write to.")
    return ReadOnlyReason(why, todo, locked=True)


def open_for_window(path: str | os.PathLike[str]) -> tuple[Project, ReadOnlyReason | None]:
    """Open a project for the window: for writing where it can be written, else for reading
    (a read-only disk or folder, or a project another studio holds), with the reason.

    Errors other than those two (no project there, a damaged one, a full disk) are raised as
    they are; so is the reading opening's own error (a read-only folder whose changes were
    left in an unread WAL file can't even be read)."""
    folder = normalise_project_path(path)
    wait_for_close(folder)  # closed a moment ago in this window, it may still be closing: its lock goes then
    if (folder / DB_NAME).is_file() and not storage_errors.folder_writable(folder):
        reason = unwritable_reason(folder)  # not even the lock file can be made: don't try
    else:
        try:
            return Project.open(folder), None
        except ProjectLockedError as error:
            reason = locked_reason(folder, error.holder, error.message)
        except ProjectReadOnlyError:
            reason = unwritable_reason(folder)
    return Project.open(folder, read_only=True), reason


def is_free_to_write(folder: Path) -> bool:
    """Whether no other writer holds ``folder`` now (the one that held it closed it)."""
    return not writer_is_live(folder)


def save_copy(project: Project, dest: str | os.PathLike[str]) -> Project:
    """Copy ``project`` to the new project folder ``dest`` and open the copy for writing.

    Made as a bundle would be (a consistent snapshot of the database, then its media, every
    file checked against the bundle's list) in a scratch folder beside ``dest``, which is
    then unpacked there: a copy cut short (a full disk) leaves nothing that looks like a
    project, and the original is only read."""
    from studio.storage.bundle import export_bundle, import_bundle

    folder = Project.new_folder(dest)  # a free place outside every project, checked before anything is written
    parent = next((p for p in folder.parents if p.is_dir()), folder.parent)
    what = f"save a copy of {project.name} in {parent}"
    sweep(parent, lambda name: name.startswith(COPY_SCRATCH_PREFIX))  # left by a studio killed while it copied
    try:
        scratch = StagingDir(parent, COPY_SCRATCH_PREFIX)
    except OSError as error:
        raise unwritable_folder_error(error, parent, what) from None
    with scratch:
        bundle = export_bundle(project, scratch.path / "copy.zip")
        return import_bundle(bundle, folder)


COPY_SCRATCH_PREFIX = ".kamishibai-copy-"
"""The hidden work folder :func:`save_copy` writes its bundle in, beside the new project."""


def database_damaged(project: Project) -> bool:
    """Whether ``project``'s database fails SQLite's checks now (damaged since it was opened)."""
    from studio.storage.database import inspect_database

    try:
        inspect_database(project.database.path, writer_is_us=not project.read_only)
    except ProjectDamagedError:
        return True
    except StudioError:
        return False
    return False


class ProjectCopy(QObject):
    """:func:`save_copy` on a thread of its own (a project on a DVD or a network share can take
    minutes to read), so that the window stays responsive; ``done`` brings the copy (a
    :class:`Project`, open for writing) or the error back on the GUI thread."""

    done = Signal(object)  # Project | StudioError

    def __init__(self, project: Project, dest: Path, parent: QObject | None = None,
                 held: StoryTree | None = None, damaged: bool = False) -> None:
        """``held``: the story as the window holds it, written to the copy in place of the
        database's when the database is damaged (``damaged``: known already; else found while
        copying)."""
        super().__init__(parent)
        self.project = project
        self.dest = dest
        self.held = held
        self.result: Project | StudioError | None = None
        """The copy, or why it could not be made (None until it ends)."""
        self.unreadable: list[str] = []
        """Media files left out of a copy made from the held story: they could not be read."""
        self.from_memory = damaged and held is not None
        """Whether the copy was made from the held story (the database was damaged)."""
        self._thread = threading.Thread(target=self._run, name="save-a-copy", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def wait(self) -> None:
        """Block until the copy is made or has failed (the window is closing)."""
        self._thread.join()

    def _run(self) -> None:
        result: Project | StudioError
        try:
            result = self._copy()
        except StudioError as error:
            result = error
        except Exception as error:  # a bug: logged, and the user still hears of it
            log.error("saving a copy failed", exc_info=error)
            result = unexpected_error(error)
        self.result = result
        if shiboken6.isValid(self):
            self.done.emit(result)

    def _copy(self) -> Project:
        """The copy as a bundle would be made; from the held story where the database is
        known damaged, or found so now."""
        from studio.storage.bundle import BundleError

        if not self.from_memory:
            try:
                return save_copy(self.project, self.dest)
            except ProjectDamagedError as error:
                if self.held is None:
                    raise
                log.warning("the database is damaged; the copy is made from the story the window holds: %s",
                            error.message)
            except BundleError:  # the snapshot was made, but its database fails the checks
                if self.held is None or not database_damaged(self.project):
                    raise
                log.warning("the database is damaged; the copy is made from the story the window holds")
        return self._copy_held()

    def _copy_held(self) -> Project:
        from studio.storage.rescue import copy_from_memory

        assert self.held is not None
        self.from_memory = True
        rescued = copy_from_memory(self.project, self.held, self.dest)
        self.unreadable = rescued.unreadable
        return rescued.project


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
                 parent: QObject | None = None, loop: asyncio.AbstractEventLoop | None = None,
                 read_only: ReadOnlyReason | None = None) -> None:
        """``loop``: the GUI's asyncio (qasync) loop, if it runs one (events need none).
        ``read_only``: why ``project`` was opened for reading only (None: it is writable)."""
        super().__init__(parent)
        from studio.worker.writer import Writer  # the writer, not the service: no numpy yet

        self.loop = loop
        self.project = project
        self.read_only = read_only
        """Why the project can't be changed (None: it can). Its service still runs exports."""
        self._disk_stamp = database_stamp(project.path) if read_only is not None else None
        """The database's files as this read-only session read them (see :meth:`changed_elsewhere`)."""
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
        self.damage_handler: Callable[[StudioError], None] | None = None
        """Where a change refused because the database is damaged goes (the window turns
        read-only); None: to :attr:`error_handler` as any other refusal."""
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
            self.report(error)
            return
        if error is not None:
            # a bug, not bad input: the traceback goes to the log, and the user still hears of it
            log.error("an operation failed", exc_info=error)
            self.report(unexpected_error(error))
            return
        if then is not None:
            then(future.result())

    def report(self, error: StudioError) -> None:
        """Show ``error`` where the window shows errors (logged when no window listens); a
        damaged database is said once, by the window turning read-only."""
        if isinstance(error, ProjectDamagedError) and self.damage_handler is not None:
            log.warning("%s", error.message)
            self.damage_handler(error)
            return
        if self.error_handler is not None:
            self.error_handler(error)
        else:
            log.warning("%s", error.message)

    def changed_elsewhere(self) -> bool:
        """Whether the project open read-only was changed since it was read, by the program that
        holds it (its database or write-ahead log was written): a cheap look, two ``stat``
        calls, that the window makes on a timer. False for a project open for writing."""
        return self._disk_stamp is not None and database_stamp(self.project.path) != self._disk_stamp

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

    def refuse_if_read_only(self, what: str) -> None:
        """Raise the read-only reason's error for a change (``what``) to a read-only project."""
        if self.read_only is not None:
            raise self.read_only.refusal(what)

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
        """Stop the worker and close the project: ``cancel`` cancels every job; ``keep`` leaves
        queued jobs queued and stops a running one within one engine step, queued again too (the
        user kept it: it runs again, with its seed, when the project opens next, as the queued
        ones do; a job cut short by a crash is left interrupted, for Retry).

        The window's thread waits :data:`CLOSE_WAIT_S` at most: an engine step can take seconds
        (it held the window 1.4 s). Past that, the rest of the close (the job stopping, the
        project closed, its lock released) runs on a thread of its own, which the process waits
        for before it exits; opening the project again in this process waits for it too
        (:func:`wait_for_close`)."""
        service = self.service
        if self.bridge is not None:
            self.bridge.close()
        if service is None:
            if self.events is not None:
                self.events.close()
            self._release()
            return
        from studio.worker.events import JobStatus as Status

        if policy == "cancel":
            for job in self.active_jobs():
                try:
                    service.cancel(job.id)
                except StudioError:
                    pass
            kept: list[str] = []
        else:
            service.pause()
            self.settle()
            kept = [job.id for job in service.jobs() if job.status is Status.RUNNING]
        stop = functools.partial(service.stop, cancel_running=policy == "cancel",
                                 interrupt_running=policy != "cancel")
        stopped = stop(timeout=CLOSE_WAIT_S)
        if self.events is not None:  # the window hears no more of this project
            self.events.close()
        if stopped:
            self._finish_close(service, kept, stopped=True)
            return
        folder = _closing_key(self.project.path)

        def finish() -> None:
            try:
                self._finish_close(service, kept, stopped=stop(timeout=STOP_TIMEOUT_S))
            finally:
                with _CLOSING_LOCK:
                    if _CLOSING.get(folder) is threading.current_thread():
                        del _CLOSING[folder]

        # not a daemon: the process waits for it before it exits, so the project is always closed
        thread = threading.Thread(target=finish, name=f"close-{self.project.path.name}", daemon=False)
        with _CLOSING_LOCK:
            _CLOSING[folder] = thread
        thread.start()

    def _finish_close(self, service: Any, kept: list[str], *, stopped: bool) -> None:
        """After the worker stopped (``stopped``; else it is left, as before, after its time):
        queue again the running jobs the user kept, then close the project."""
        if kept and stopped:
            try:
                service.requeue_interrupted(only=kept)
            except Exception:  # the project still closes; the job stays interrupted, for Retry
                log.exception("could not queue again the jobs kept for next time")
        elif not stopped:
            log.warning("the generation worker did not stop in time; the project is closed without waiting for it")
        self._release()

    def _release(self) -> None:
        """Let the document be changed on the caller's thread again, and close the project
        (its lock file goes)."""
        self.writer.detach()
        self.project.close()


CLOSE_WAIT_S = 0.25
"""How long closing a project waits for the worker on the window's thread before it goes on
in the background (see :meth:`ProjectSession.close`)."""
STOP_TIMEOUT_S = 15.0
"""How long a closing project waits for a running job to stop before it is closed anyway."""

_CLOSING: dict[str, threading.Thread] = {}
"""The projects of this process still closing in the background, by folder."""
_CLOSING_LOCK = threading.Lock()


def _closing_key(folder: Path) -> str:
    try:
        return str(folder.expanduser().resolve())
    except OSError:
        return str(folder.expanduser().absolute())


def wait_for_close(folder: str | os.PathLike[str] | None = None, timeout: float | None = STOP_TIMEOUT_S + 5) -> bool:
    """Wait until the project at ``folder`` (None: every project) closing in the background in
    this process is closed and its lock released. False if one is still closing after
    ``timeout`` seconds."""
    with _CLOSING_LOCK:
        if folder is None:
            threads = list(_CLOSING.values())
        else:
            one = _CLOSING.get(_closing_key(Path(folder)))
            threads = [one] if one is not None else []
    for thread in threads:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in threads)
