"""Running one job on the worker thread: the generation pipeline and plain tasks.

A generate job goes context -> (host: load, predict, decode, write files) -> verify the
files -> commit the take. The take row is
committed only after its files are complete; a failure records a FAILED take (no media)
so the node's history shows it; a cancellation, or a node deleted meanwhile, records
nothing and removes the take's folder. A host lost mid-job (a cluster node or actor that
died) records nothing either: the job goes back to the queue (:class:`HostLostError`).
A project folder moved or deleted since it was opened fails the job before its host starts
(the files would be written by the old path), and no failed take is recorded for it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from studio.core.commands import (
    AddBranchRerollTake,
    AddRerolledTake,
    AddTake,
    CommandError,
    reroll_keeps_selection,
)
from studio.core.document import UndoGroup
from studio.core.errors import StudioError
from studio.core.model import Take, TakeStatus, now_iso
from studio.core.progress import Cancelled, Progress, check_cancelled
from studio.core.state import CharacterState, StateScope
from studio.core.tree import StoryTree
from studio.engines.base import EngineError, EngineInfo, EngineSettings
from studio.storage.errors import DiskFullError, ProjectMovedError
from studio.storage.project import Project
from studio.worker.choice_reroll import ChoiceRerollGroup
from studio.worker.context import NodeGone, RepresentationCache, build_context
from studio.worker.engine_host import Host, HostJobError, HostLostError
from studio.worker.failures import describe_failure, release_gpu_memory
from studio.worker.host_job import HostJob, HostPrediction
from studio.worker.jobs import Job, JobStatus, settings_problem
from studio.worker.progress import PreviewFrames, ProgressTracker, ProgressUpdate, StageTimes, preview_frames
from studio.worker.results import jsonable, verify_media

log = logging.getLogger(__name__)

NODE_DELETED_MESSAGE = "The turn was deleted while it was being generated; nothing was kept."
NODE_DELETED_BEFORE_MESSAGE = "The turn was deleted before its job started; nothing was generated."
"""A queued job whose turn was deleted (it is cancelled when its turn comes up, so that an
undone delete still generates it; a paused queue cancels it at once). Either way, an undo
that brings the turn back queues it again (:meth:`JobQueue.requeue_restored_turns`)."""
CANCELLED_MESSAGE = "Cancelled."

TaskFunction = Callable[[Callable[[Progress], None], Callable[[], bool]], Any]
"""``fn(progress, cancelled)``: report with ``progress(Progress(step, total))``, stop when
``cancelled()`` is true (raise :class:`Cancelled`, or return early)."""


REROLL_LABEL = "Re-roll"
"""The label of a single turn's re-roll job (a branch re-roll selects as it goes)."""
REROLL_BRANCH_LABEL = "Re-roll branch"
"""The label of each job of a branch re-roll (its takes' undo entries say so)."""

_GROUP_UNITS = {REROLL_BRANCH_LABEL: "turn", REROLL_LABEL: "take"}
"""The jobs whose takes are undone together with the other takes of the action that queued
them (a branch re-roll, a re-roll of several takes at once), and what each take is called."""


def undo_group_key(job: Job) -> str:
    """The undo group of ``job``'s take ("" for none). The jobs one re-roll queues share their
    label and their ``created_at`` (stamped once for them all, and never given to the jobs
    of another re-roll: see ``Operations``), which are stored with them: the group outlives
    a restart."""
    if job.label not in _GROUP_UNITS or not job.created_at:
        return ""
    return f"{job.label}@{job.created_at}"


GroupSize = Callable[[str], int]
"""How many jobs of the undo group ``key`` make or will make a take (not cancelled ones)."""

GroupChoice = Callable[[str], str]
"""The take chosen that the re-roll ``key`` follows ("" for a re-roll on its own): see
:mod:`studio.worker.choice_reroll`."""


class Reporter(Protocol):
    """How a running job tells the service (and its subscribers) what it is doing."""

    def progress(self, update: ProgressUpdate) -> None: ...

    def predicted(self, prediction: HostPrediction, state: CharacterState) -> None: ...


@dataclass(frozen=True)
class Outcome:
    status: JobStatus
    take_id: str = ""
    message: str = ""
    hint: str = ""
    out_of_memory: bool = False
    result: Any = None
    timings: dict[str, float] = field(default_factory=dict)
    ran_on: str = ""
    """A done job: where it ran, when its host says (see ``HostResult.ran_on``)."""


def _start_character(tree: StoryTree, node_id: str) -> str:
    """Whose state a take of ``node_id`` starts from: its acting character's, or "" where one
    state runs down the branch (see :class:`~studio.core.state.StateScope`)."""
    return tree.acting_character(node_id) if tree.state_scope is StateScope.CHARACTER else ""


def _seconds(start: float) -> float:
    return round(time.perf_counter() - start, 4)


class GenerateRunner:
    """Runs generate jobs against one project with the engine its host holds.

    The runner reads the document (the context), the host runs the engine and writes the
    files, and the runner verifies them and commits the take row.
    """

    def __init__(self, project: Project, host: Host, stage_times: StageTimes,
                 cache: RepresentationCache, *, undoable_takes: bool = True,
                 group_size: GroupSize | None = None, group_choice: GroupChoice | None = None) -> None:
        self.project = project
        self.host = host
        self.stage_times = stage_times
        self.cache = cache
        self.undoable_takes = undoable_takes
        self.group_size = group_size
        """Counts a re-roll's jobs for its undo entry's label (without it: the takes landed)."""
        self.group_choice = group_choice
        """Names the take chosen before a re-roll, whose undo entry its takes join."""
        self.reroll_selects = False
        """When False (the default), a re-roll of a turn with later turns adds its take
        without selecting it (see :func:`~studio.core.commands.reroll_keeps_selection`)."""

    def _node_exists(self, node_id: str) -> bool:
        return node_id in self.project.tree.nodes

    def run(self, job: Job, reporter: Reporter, is_cancelled: Callable[[], bool]) -> Outcome:
        assert job.node_id is not None
        node_id, take_id = job.node_id, job.take_id
        loading = self.host.needs_load(job.engine)
        tracker = ProgressTracker.for_engine(self.stage_times, job.engine, loading=loading)
        timings: dict[str, float] = {}
        readable = isinstance(job.settings, Mapping)
        used: dict[str, Any] = dict(job.settings) if readable else {}
        parent_take_id = ""
        instruction_raw = ""
        engine_version = ""
        start_state: CharacterState | None = None
        start_character = ""
        generating = False

        def cancelled() -> bool:
            return is_cancelled() or not self._node_exists(node_id)

        try:
            if not readable:  # a row another program wrote: fail it with the reason
                raise StudioError(f"The job's settings can't be read: {settings_problem(job)}.",
                                  hint="Retry it to run it with the engine's default settings.")
            info = self.host.registry.info(job.engine)
            settings, ignored = job_settings(info, job.settings)
            used = settings.to_values()
            start = time.perf_counter()
            snapshot = build_context(self.project, node_id, info, settings, self.cache, self._legacy_space)
            timings["context_s"] = _seconds(start)
            parent_take_id = snapshot.parent_take_id
            instruction_raw = snapshot.instruction.raw
            start_state = snapshot.parent_state  # kept by a failed take too
            start_character = _start_character(self.project.tree, node_id)
            check_cancelled(cancelled)
            host_job = HostJob(engine=job.engine, context=snapshot.context, instruction=snapshot.instruction,
                               settings=used, seed=job.seed, take_id=take_id, node_id=node_id,
                               media_root=self.project.path, media_dir=self.project.take_media_dir(take_id))
            listener = _RunListener(tracker, reporter, snapshot.parent_state, timings)
            # the host writes the take's files by path: a folder moved or deleted since the
            # project was opened is refused now, not after a whole generation
            self.project.check_in_place("generate a take")
            generating = True
            if loading:  # told at once: an engine's first load report comes after its libraries are imported
                listener.progress("load", Progress(0, 1, f"loading the {info.name} engine"))
            result = self.host.execute(host_job, listener, cancelled)
            engine_version = result.engine_version
            timings.update(result.timings)
            check_cancelled(cancelled)
            wrong = verify_media(self.project, result.files)
            if wrong:
                raise EngineError(wrong, hint="Nothing of this take was kept. Retry the job.")

            prediction = result.prediction
            take = Take(
                id=take_id, node_id=node_id, engine=job.engine, engine_version=result.engine_version,
                settings=jsonable(used), seed=job.seed, deltas=prediction.deltas,
                motion_level=prediction.motion_level, representation_path=result.representation.path,
                clip_path=result.clip.path, poster_path=result.poster.path, timings=dict(timings),
                status=TakeStatus.DONE, warnings=(*ignored, *snapshot.warnings, *prediction.warnings),
                parent_take_id=parent_take_id, instruction_raw=instruction_raw,
                conditioning=prediction.conditioning, created_at=now_iso(),
                start_state=start_state, start_character=start_character,
            )
            self._commit(take, select=True, label=job.label, group=self._undo_group(job), cancelled=is_cancelled)
            self.cache.put(take_id, prediction.representation, prediction.space)
            self.stage_times.record(job.engine, timings)
            return Outcome(JobStatus.DONE, take_id=take_id, timings=timings, ran_on=result.ran_on)
        except HostLostError as lost:
            self._discard_media(take_id)
            if not cancelled():
                log.warning("job %s goes back to the queue: %s", job.id, lost.message)
                return Outcome(JobStatus.QUEUED, message=lost.message, hint=lost.hint, timings=timings)
            return Outcome(JobStatus.CANCELLED, message=self._cancelled_message(node_id, generating),
                           timings=timings)
        except (Cancelled, NodeGone):
            self._discard_media(take_id)
            return Outcome(JobStatus.CANCELLED, message=self._cancelled_message(node_id, generating),
                           timings=timings)
        except Exception as error:  # any engine error fails the job, never the worker
            self._discard_media(take_id)
            if isinstance(error, HostJobError):
                failure = error.failure
            else:
                failure = describe_failure(error, job.engine, self.host.device)
            if failure.out_of_memory:
                self.host.unload()
                release_gpu_memory()
            else:
                log.info("job %s failed: %s", job.id, failure.message,
                         exc_info=not isinstance(error, CommandError | HostJobError))
            if not engine_version and job.engine in self.host.registry:
                engine_version = self.host.registry.info(job.engine).version
            failed = Take(
                id=take_id, node_id=node_id, engine=job.engine, engine_version=engine_version,
                settings=_safe_settings(used), seed=job.seed, timings=dict(timings), status=TakeStatus.FAILED,
                error=failure.message, hint=failure.hint,
                parent_take_id=parent_take_id, instruction_raw=instruction_raw, created_at=now_iso(),
                start_state=start_state, start_character=start_character,
            )
            recorded = ""
            try:
                if self._in_place():
                    self._commit(failed, select=False, label=job.label,
                                 group=self._undo_group(job))
                    recorded = take_id
            except NodeGone:
                return Outcome(JobStatus.CANCELLED, message=NODE_DELETED_MESSAGE, timings=timings)
            except DiskFullError as full:  # said in full by its message: no traceback to offer
                log.warning("could not record the failed take of job %s: %s", job.id, full.message)
            except Exception:  # the job still ends as failed
                log.exception("could not record the failed take of job %s", job.id)
            return Outcome(JobStatus.FAILED, take_id=recorded, message=failure.message, hint=failure.hint,
                           out_of_memory=failure.out_of_memory, timings=timings)

    def _cancelled_message(self, node_id: str, generating: bool) -> str:
        """Why a job ended cancelled: its turn was deleted (before its job started, or while
        it was being generated), else it was cancelled."""
        if self._node_exists(node_id):
            return CANCELLED_MESSAGE
        return NODE_DELETED_MESSAGE if generating else NODE_DELETED_BEFORE_MESSAGE

    def _in_place(self) -> bool:
        """Whether the project folder is still where it was opened. A failed take is not
        recorded once it moved: its commit would be refused with the same error, which the
        job already ends with (however the host reported it)."""
        try:
            self.project.check_in_place("record the failed take")
        except ProjectMovedError:
            return False
        return True

    def _discard_media(self, take_id: str) -> None:
        """Remove what a job that ended without a take left of its folder. Best effort: the
        job's own error (a moved project folder, say) is what the user must read, so a
        second one here is only logged."""
        try:
            self.project.remove_take_media(take_id)
        except Exception:
            log.warning("could not remove the files of take %s", take_id, exc_info=True)

    def _legacy_space(self, take: Take, array: Any) -> str:
        """The space of a representation file written before files named theirs: the space
        its engine declares, when that engine is known here and the shape fits."""
        if take.engine not in self.host.registry:
            return ""
        spec = self.host.registry.info(take.engine).capabilities.representation
        return spec.space if tuple(getattr(array, "shape", ())) == tuple(spec.shape) else ""

    def _undo_group(self, job: Job) -> UndoGroup | None:
        """The undo group of ``job``'s take: the takes of one re-roll are undone together."""
        key = undo_group_key(job)
        if not key:
            return None
        total = self.group_size(key) if self.group_size is not None else 0
        chosen = self.group_choice(key) if self.group_choice is not None else ""
        if chosen:
            return ChoiceRerollGroup(key, total=total, unit=_GROUP_UNITS[job.label], chosen=chosen)
        return UndoGroup(key, total=total, unit=_GROUP_UNITS[job.label])

    def _commit(self, take: Take, *, select: bool, label: str = "", group: UndoGroup | None = None,
                cancelled: Callable[[], bool] | None = None) -> None:
        """Add the take, unless its node was deleted meanwhile or its job was cancelled (each
        checked and applied as one change, on the writer: an Undo of the re-roll cancels the
        jobs still running there before it takes the landed takes back, and a take finished
        just before must not land after it). A re-roll (job ``label``) of a turn with later
        turns keeps the chosen take unless ``reroll_selects``; its undo entry names what made
        it, and holds the takes of the same re-roll (``group``) that landed just before it."""
        document = self.project.document

        def change() -> None:
            if take.node_id not in document.tree.nodes:
                raise NodeGone(take.node_id)
            if cancelled is not None:
                check_cancelled(cancelled)
            command: AddTake
            if label == REROLL_LABEL:
                keep = not self.reroll_selects and reroll_keeps_selection(document.tree, take.node_id)
                command = AddRerolledTake(take, select=select and not keep)
            elif label == REROLL_BRANCH_LABEL:
                command = AddBranchRerollTake(take, select=select)
            else:
                command = AddTake(take, select=select)
            document.apply(command, undoable=self.undoable_takes, background=True, group=group)

        document.change(change)


def job_settings(info: EngineInfo, values: Mapping[str, Any]) -> tuple[EngineSettings, list[str]]:
    """The job's settings over the engine's defaults. Names the engine doesn't have (a job
    queued by an older version) are dropped with a warning; bad values fail the job."""
    known = {spec.name for spec in info.settings.schema()}
    ignored = [f"Setting {name!r} is not a {info.name} setting; it was ignored."
               for name in values if name not in known]
    return info.settings.from_values(values, ignore_unknown=True), ignored


def _safe_settings(settings: dict[str, Any]) -> dict[str, Any]:
    try:
        plain: dict[str, Any] = jsonable(settings)
        return plain
    except (TypeError, ValueError):
        return {}


def run_task(fn: TaskFunction, reporter: Reporter, is_cancelled: Callable[[], bool]) -> Outcome:
    """Run an in-memory task with the same progress, cancel and error handling."""
    tracker = ProgressTracker({"task": 1.0})

    def progress(p: Progress) -> None:
        update = tracker.update("task", p.step, p.total, p.message)
        if update is not None:
            reporter.progress(update)

    start = time.perf_counter()
    try:
        result = fn(progress, is_cancelled)
    except Cancelled:
        return Outcome(JobStatus.CANCELLED, message=CANCELLED_MESSAGE)
    except Exception as error:  # a task's error fails the task, never the worker
        failure = describe_failure(error)
        if failure.out_of_memory:
            release_gpu_memory()
        log.info("task failed: %s", failure.message, exc_info=True)
        return Outcome(JobStatus.FAILED, message=failure.message, hint=failure.hint,
                       out_of_memory=failure.out_of_memory)
    return Outcome(JobStatus.DONE, result=result, timings={"task_s": _seconds(start)})


class _RunListener:
    """Turns what the host reports into the job's progress bar and events."""

    def __init__(self, tracker: ProgressTracker, reporter: Reporter, parent_state: CharacterState,
                 timings: dict[str, float]) -> None:
        self._tracker = tracker
        self._reporter = reporter
        self._parent_state = parent_state
        self._timings = timings
        self._preview: PreviewFrames | None = None
        """The newest preview: every later progress event carries it (see :class:`PreviewFrames`)."""

    def progress(self, stage: str, progress: Progress) -> None:
        frames = preview_frames(progress.preview) if progress.preview is not None else None
        update = self._tracker.update(stage, progress.step, progress.total, progress.message,
                                      news=frames is not None)
        if update is None:  # stale (out of order), or nothing new: an older preview is dropped with it
            return
        if frames is not None:
            self._preview = PreviewFrames(frames, stage, progress.step, progress.total, progress.message)
        self._reporter.progress(replace(update, preview=self._preview) if self._preview is not None else update)

    def loaded(self, seconds: float) -> None:
        if seconds >= 0.001:
            self._timings["load_s"] = round(seconds, 4)
        self._tracker.restart_clock()

    def predicted(self, prediction: HostPrediction) -> None:
        self._reporter.predicted(prediction, self._parent_state.apply(prediction.deltas))
