"""Operations that pair a document command with queueing jobs: generate a new turn,
re-roll, re-roll a branch, fill a branch, retry, run a task.

Each one checks everything first (engine, settings, seed), then runs as one operation on
the writer thread: the command and the jobs it queues land together, and the turns it
reads are read from the tree as it is at that moment.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from studio.core.commands import AddTurn, SelectTake
from studio.core.errors import StudioError
from studio.core.model import Node, TakeStatus, new_id, now_iso
from studio.core.tree import StoryTree
from studio.engines.base import EngineConfig, EngineError, Requirement
from studio.engines.registry import EngineRegistry
from studio.storage.job_store import check_settings
from studio.storage.project import Project
from studio.worker import queue
from studio.worker.choice_reroll import ChoiceLabels, ChoiceRerollGroup
from studio.worker.dispatch import DevicePool
from studio.worker.job_queue import RETRYABLE, JobQueue
from studio.worker.jobs import Job, JobKind, JobStatus, check_seed, new_seed
from studio.worker.runner import REROLL_BRANCH_LABEL, REROLL_LABEL, TaskFunction, undo_group_key

T = TypeVar("T")


class Operations:
    def __init__(self, project: Project, registry: EngineRegistry, jobs: JobQueue, pool: DevicePool,
                 default_engine: str, choices: ChoiceLabels | None = None) -> None:
        self.project = project
        self.choices = choices if choices is not None else ChoiceLabels()
        """The takes chosen before a re-roll, by its undo group (see :meth:`choose_and_reroll`)."""
        self.registry = registry
        self.jobs = jobs
        self.pool = pool
        self.default_engine = default_engine

    @property
    def configs(self) -> Sequence[EngineConfig]:
        return [worker.config for worker in self.pool.workers]

    def _enqueue(self, jobs: list[Job], also_save: Sequence[Job] = (), before: Any = None) -> None:
        self.pool.forget_fits()
        self.jobs.enqueue(jobs, also_save, before)

    def _at_once(self, operation: Callable[[], T]) -> T:
        """Run ``operation`` (it reads the tree and the queue, then queues jobs) as one writer
        operation: read earlier, two operations asked for at once (Fill clicked twice) would
        each miss the other's jobs and queue the same turns twice, and a job read as still to
        run could fail before the new job that waits for it is stored."""
        return self.jobs.writer.call(operation)

    # -- operations -------------------------------------------------------------------------

    def generate(self, parent_id: str, text: str, *, engine: str | None, seed: int | None,
                 settings: Mapping[str, Any] | None, priority: int) -> tuple[str, str]:
        engine_name = self.engine_name(engine)
        job_settings = self.settings_for(engine_name, settings)
        check_seed(seed)  # everything is checked before the turn is added
        node_id = new_id()

        def operation() -> str:
            job = self._new_job(node_id, engine_name, seed, job_settings, priority, "Generate",
                                self._continues_after(self.project.tree, parent_id))
            self._enqueue([job], before=lambda: self.project.apply(AddTurn(parent_id, text, node_id=node_id)))
            return job.id

        return node_id, self._at_once(operation)

    def reroll(self, node_id: str, *, engine: str | None, seed: int | None, settings: Mapping[str, Any] | None,
               priority: int, replace_interrupted: bool = False) -> str:
        def operation() -> str:
            (job_id,) = self._reroll(node_id, engine, seed, settings, priority)
            if replace_interrupted:
                self.jobs.replace_waiting([job_id], (JobStatus.INTERRUPTED,), queue.rerolled_message)
            return job_id

        return self._at_once(operation)

    def _reroll(self, node_id: str, engine: str | None, seed: int | None, settings: Mapping[str, Any] | None,
                priority: int, count: int = 1) -> list[str]:
        tree = self.project.tree
        node = _turn(tree, node_id)
        engine_name, job_settings = self.engine_for(tree, node, engine, settings)
        depends = self._continues_after(tree, node.parent_id)
        stamp = self._group_stamp(REROLL_LABEL)
        jobs = [replace(self._new_job(node.id, engine_name, seed, job_settings, priority, REROLL_LABEL, depends),
                        created_at=stamp) for _ in range(count)]
        self._enqueue(jobs)
        return [job.id for job in jobs]

    def reroll_many(self, node_id: str, count: int, *, engine: str | None, settings: Mapping[str, Any] | None,
                    priority: int) -> list[str]:
        """Queue ``count`` takes of ``node_id`` at once, each with its own seed: one action,
        whose takes are undone together (see :func:`~studio.worker.runner.undo_group_key`)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise StudioError(f"The number of takes must be a whole number of at least 1, not {count!r}.")
        return self._at_once(lambda: self._reroll(node_id, engine, None, settings, priority, count))

    def reroll_branch(self, node_id: str, *, engine: str | None, seed: int | None,
                      settings: Mapping[str, Any] | None, priority: int,
                      only: Collection[str] | None = None) -> list[str]:
        """Queue the branch's jobs, and cancel the jobs still waiting to make takes of the same
        turns (:meth:`JobQueue.replace_waiting`), in one writer operation."""
        def operation() -> list[str]:
            job_ids = self._reroll_branch(node_id, engine, seed, settings, priority, only)
            if job_ids:
                self.jobs.replace_waiting(job_ids)
            return job_ids

        return self._at_once(operation)

    def choose_and_reroll(self, node_id: str, take_id: str, *, chosen: str, engine: str | None,
                          settings: Mapping[str, Any] | None, priority: int, only: Collection[str]) -> list[str]:
        """Make ``take_id`` turn ``node_id``'s take and re-roll the later turns ``only`` (those
        the choice makes stale) from it, in one writer operation whose undo step holds both:
        the choice opens the re-roll's undo group, which each take joins as it lands (see
        :mod:`studio.worker.choice_reroll`). ``chosen`` names the take in that step's label.
        With no turn to re-roll, the choice is a step of its own."""
        def operation() -> list[str]:
            jobs = self._branch_jobs(node_id, engine, None, settings, priority, only)
            if not jobs:
                self.project.apply(SelectTake(node_id, take_id))
                return []
            key = undo_group_key(jobs[0])
            self.choices.remember(key, chosen)
            group = ChoiceRerollGroup(key, total=len(jobs), unit="turn", chosen=chosen)
            # the take is chosen before any job is stored: a job that started first would be
            # made from the former take
            self._enqueue(jobs, before=lambda: self.project.document.apply(SelectTake(node_id, take_id),
                                                                           group=group))
            job_ids = [job.id for job in jobs]
            self.jobs.replace_waiting(job_ids)
            return job_ids

        return self._at_once(operation)

    def _reroll_branch(self, node_id: str, engine: str | None, seed: int | None,
                       settings: Mapping[str, Any] | None, priority: int,
                       only: Collection[str] | None) -> list[str]:
        jobs = self._branch_jobs(node_id, engine, seed, settings, priority, only)
        self._enqueue(jobs)
        return [job.id for job in jobs]

    def _branch_jobs(self, node_id: str, engine: str | None, seed: int | None,
                     settings: Mapping[str, Any] | None, priority: int,
                     only: Collection[str] | None) -> list[Job]:
        """The jobs of a branch re-roll (see :meth:`reroll_branch`), not stored yet."""
        tree = self.project.tree  # a snapshot: the turns as they are now
        start = _node(tree, node_id)
        nodes = [start, *tree.descendants(start.id)]
        if start.is_root:
            nodes = nodes[1:]
        active = self._active_jobs()
        job_of: dict[str, str | None] = {start.parent_id or "": self._continues_after(tree, start.parent_id)}
        stamp = self._group_stamp(REROLL_BRANCH_LABEL)
        jobs: list[Job] = []
        for node in nodes:
            depends = job_of.get(node.parent_id or "")
            if only is not None and node.id not in only:
                # a turn left alone: its children wait for its own job on the way (its take, selected
                # when it ends, is the one they continue from), else for the one above it
                job_of[node.id] = active.get(node.id, depends)
                continue
            engine_name, job_settings = self.engine_for(tree, node, engine, settings)
            job = replace(self._new_job(node.id, engine_name, seed, job_settings, priority, REROLL_BRANCH_LABEL,
                                        depends), created_at=stamp)
            job_of[node.id] = job.id
            jobs.append(job)
        return jobs

    def fill(self, leaf_id: str, *, engine: str | None, settings: Mapping[str, Any] | None,
             priority: int) -> list[str]:
        return self._at_once(lambda: self._fill(leaf_id, engine, settings, priority))

    def _fill(self, leaf_id: str, engine: str | None, settings: Mapping[str, Any] | None,
              priority: int) -> list[str]:
        tree = self.project.tree
        path = tree.path_to(_node(tree, leaf_id).id)[1:]
        missing = {node.id for node in path if not any(t.status is TakeStatus.DONE for t in tree.takes_of(node.id))}
        active = self._active_jobs()
        jobs: list[Job] = []
        previous: str | None = None
        for node in path:
            if node.id in active:
                previous = active[node.id]
                continue
            if node.id not in missing:
                continue
            engine_name, job_settings = self.engine_for(tree, node, engine, settings)
            job = self._new_job(node.id, engine_name, None, job_settings, priority, "Fill", previous)
            previous = job.id
            jobs.append(job)
        self._enqueue(jobs)
        return [job.id for job in jobs]

    def submit_task(self, label: str, fn: TaskFunction, node_id: str | None, priority: int) -> str:
        job = Job(id=new_id(), kind=JobKind.TASK, node_id=node_id, priority=priority, label=label,
                  created_at=now_iso())
        self.pool.tasks[job.id] = fn
        self._enqueue([job])
        return job.id

    def retry(self, job_id: str, seed: int | None, same_seed: bool) -> str:
        return self._at_once(lambda: self._retry(job_id, seed, same_seed))

    def _retry(self, job_id: str, seed: int | None, same_seed: bool) -> str:
        old = self.jobs.job(job_id)
        if old.status not in RETRYABLE:
            raise StudioError(f"Job {job_id} is {old.status.value}; only failed, cancelled or interrupted jobs "
                              "can be retried.")
        if old.kind is JobKind.TASK:
            fn = self.pool.tasks.get(old.id)
            if fn is None:
                raise StudioError(f"Task {job_id} can't be retried: it was not started in this session.")
            return self.submit_task(old.label, fn, old.node_id, old.priority)
        if old.node_id is None or old.node_id not in self.project.tree.nodes:
            raise StudioError(f"Job {job_id} can't be retried: its turn was deleted.")
        later = self.jobs.superseded_by(old)
        if later is not None:  # run again, it would take the selection from the re-rolled take
            raise StudioError(f"Job {job_id} can't be retried: the branch was re-rolled since, and job {later.id} "
                              "makes this turn's take instead.",
                              hint="To make another take of this turn, re-roll it.")
        engine = self.engine_name(old.engine)  # refused now, not queued to wait for ever
        chosen = seed if seed is not None else (old.seed if same_seed else None)
        settings = dict(old.settings) if isinstance(old.settings, Mapping) else {}  # unreadable: the defaults
        # it keeps its place in a chain: after the job it waited for, if that one is still to run
        parent = self.jobs.get(old.depends_on) if old.depends_on else None
        depends_on = parent.id if parent is not None and not parent.finished else None
        job = replace(self._new_job(old.node_id, engine, chosen, settings, old.priority, old.label or "Retry",
                                    depends_on), retry_of=old.id)
        # the jobs that waited for the old one wait for this one (an interrupted one is replaced)
        self.pool.forget_fits()
        return self.jobs.enqueue_retry(job, old.id)[0].id

    # -- engines and settings ---------------------------------------------------------------

    def engine_name(self, engine: str | None) -> str:
        """``engine`` (or the default), refused now if it is unknown or no device can run it."""
        name = engine or self.default_engine
        if name not in self.registry.names():
            known = ", ".join(self.registry.names()) or "none"
            raise StudioError(f"Unknown engine {name!r}.", hint=f"Available engines: {known}.")
        unmet: list[Requirement] = []
        for config in self.configs:
            unmet = self.registry.check(name, config)
            if not unmet:
                break
        if unmet:
            device = self.configs[0].describe() if self.configs else "cpu"
            message, hint = cannot_run(name, unmet, "kamishibai doctor" + ("" if device == "cpu" else
                                                                           f" --device {device}"))
            raise EngineError(message, hint=hint)
        return name

    def settings_for(self, engine: str, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """The values that differ from the engine's defaults, validated now (not at job time)."""
        chosen = self.registry.info(engine).settings.from_values(settings or {})
        return check_settings(chosen.overrides())

    def engine_for(self, tree: StoryTree, node: Node, engine: str | None, settings: Mapping[str, Any] | None
                   ) -> tuple[str, dict[str, Any]]:
        """The engine and settings to re-roll ``node`` with: as given, else its current take's.
        Settings given for the current take's own engine replace only the names they give: the
        take's others hold (a re-roll with `--setting frames=3` of a 64x48 take stays 64x48)."""
        current = tree.takes.get(node.selected_take_id or "")
        if engine is None and current is not None and current.engine in self.registry.names():
            name = self.engine_name(current.engine)
        else:
            name = self.engine_name(engine)
        if settings is not None:
            if current is not None and current.engine == name:
                settings = self.registry.info(name).settings.replacing(current.settings, settings)
            return name, self.settings_for(name, settings)
        if current is not None and current.engine == name:
            used = self.registry.info(name).settings.from_values(current.settings, ignore_unknown=True)
            return name, check_settings(used.overrides())
        return name, {}

    def _continues_after(self, tree: StoryTree, parent_id: str | None) -> str | None:
        """The job a turn under ``parent_id`` waits for: a turn continues from the clip and state
        of the turn above it, so while that turn has no finished take and one is queued or being
        made, the new job waits for it (and is cancelled if it fails; retrying it brings this one
        back). None at the story's start, or when the turn above has a take to continue from."""
        if parent_id is None or parent_id == tree.root_id or parent_id not in tree.nodes:
            return None
        if any(take.status is TakeStatus.DONE for take in tree.takes_of(parent_id)):
            return None
        return self._active_jobs().get(parent_id)

    def _group_stamp(self, label: str) -> str:
        """The ``created_at`` of every job one re-roll queues: with their label it names the
        re-roll's undo group (:func:`~studio.worker.runner.undo_group_key`), so it is never
        one that jobs of the same label already have (a re-roll asked for within the same
        millisecond as the one before it)."""
        used = {job.created_at for job in self.jobs.jobs(include_finished=True) if job.label == label}
        stamp = now_iso()
        while stamp in used:
            time.sleep(0.001)
            stamp = now_iso()
        return stamp

    def _active_jobs(self) -> dict[str, str]:
        """Each turn's newest generate job that is queued or running, by turn (not an
        interrupted one: it may never run)."""
        return {
            job.node_id: job.id for job in sorted(self.jobs.jobs(), key=lambda j: j.sequence)
            if job.kind is JobKind.GENERATE and job.node_id is not None
            and job.status in (JobStatus.QUEUED, JobStatus.RUNNING)
        }

    def _new_job(self, node_id: str, engine: str, seed: int | None, settings: dict[str, Any], priority: int,
                 label: str, depends_on: str | None = None) -> Job:
        check_seed(seed)
        return Job(
            id=new_id(), kind=JobKind.GENERATE, node_id=node_id, engine=engine,
            seed=new_seed() if seed is None else int(seed), settings=settings, priority=int(priority),
            created_at=now_iso(), depends_on=depends_on, label=label,
        )


REASONS_IN_FULL = 3
"""At most this many reasons an engine can't run are said in full in one message."""


def cannot_run(name: str, unmet: Sequence[Requirement], doctor: str = "kamishibai doctor") -> tuple[str, str]:
    """The message and hint that say engine ``name`` can't run here, from its unmet requirements.

    Every reason is said, hardest first, when there are few. Many reasons are missing weights
    files, one per file, which one hint fixes: then the first reason is said with every other
    one among the first few that is no missing file, and the rest are counted, with the
    command that lists them (``doctor``: that command as the user can paste it, with the device
    and checkpoints folder they gave; "--device DEVICE" was refused by the command's own parser).
    QA: "... (and 1 more reason(s))" hid the second reason (a second stage placed on a GPU that
    is not there), which the user had to fix too."""
    from studio.engines.requirements import RequirementKind, hardest_first

    ordered = hardest_first(unmet)
    if len(ordered) <= REASONS_IN_FULL:
        shown = ordered
    else:
        later = ordered[1:REASONS_IN_FULL]
        # a damaged file (cut short, not the format its name says) is the cause a user can fix where
        # the hardest reason is the machine's: it was counted among the "more reasons", unnamed
        damaged = [reason for reason in ordered[1:] if reason.kind is RequirementKind.FILE
                   and not reason.message.startswith("Missing ")][:REASONS_IN_FULL - 1]
        shown = ordered[:1] + damaged + [reason for reason in later
                                         if reason.kind is not RequirementKind.FILE and reason not in damaged]
    said = " ".join(_sentence(reason.message) for reason in shown)
    rest = len(ordered) - len(shown)
    if rest:
        said += f" And {rest} more reason{'s' if rest != 1 else ''}: `{doctor}` lists every one."
    hints = list(dict.fromkeys(_sentence(reason.hint) for reason in shown if reason.hint.strip()))
    return f"The {name} engine can't run here: {said}", " ".join(hints) or "Run `kamishibai doctor` for every reason."


def _sentence(text: str) -> str:
    """``text`` ending as a sentence does, to be followed by another on the same line."""
    text = text.strip()
    return text if not text or text[-1] in ".!?)" else f"{text}."


def _node(tree: StoryTree, node_id: str) -> Node:
    node = tree.nodes.get(node_id)
    if node is None:
        raise StudioError(f"No node {node_id!r} in this project.")
    return node


def _turn(tree: StoryTree, node_id: str) -> Node:
    node = _node(tree, node_id)
    if node.is_root:
        raise StudioError("The story's start has no clip to generate.", hint="Choose a turn instead.")
    return node
