"""The GUI's view of generation jobs, kept up to date from job events.

Cards ask it "is a job running for this node, how far along?"; the queue panel asks it
for ETAs and messages. It only ever runs on the GUI thread (fed by the WorkerBridge).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.core.jobs import JobKind
from studio.ui.node_summary import JobView
from studio.worker.events import EventKind, Job, JobEvent, JobStatus, PreviewFrames


def kind_name(kind: Any) -> str:
    """The value of an enum (a job's status or kind) as text, for labels."""
    return str(getattr(kind, "value", kind))


ENDED = (EventKind.FINISHED, EventKind.FAILED, EventKind.CANCELLED)
RUNNING = (EventKind.STARTED, EventKind.PROGRESS, EventKind.PREDICTED)


def running_view(event: JobEvent, old: JobView | None) -> JobView:
    """A running job's view after ``event`` (started, progress or predicted). Only progress
    events carry the bar, the time left and the engine's step message; the others keep what
    the last one said: a prediction's result cleared a time left already known, and the
    queue's line went back to "estimating…" until decoding's next step."""
    if event.total:
        fraction = min(1.0, max(0.0, event.fraction))
        return JobView(event.job_id, JobStatus.RUNNING, fraction, event.message, eta_s=event.eta_s)
    if old is not None and old.status == JobStatus.RUNNING:
        return JobView(event.job_id, JobStatus.RUNNING, old.fraction, old.message, eta_s=old.eta_s)
    fraction = min(1.0, max(0.0, float(getattr(event.job, "progress", 0.0) or 0.0)))
    return JobView(event.job_id, JobStatus.RUNNING, fraction, eta_s=getattr(event.job, "eta_s", None))


class JobTracker(QObject):
    """Latest known state of every job, indexed by job and by node."""

    nodes_changed = Signal(object)  # set[str] of node ids whose job status changed
    progressed = Signal(object)  # set[str] of node ids whose running job moved on (same status)
    job_finished = Signal(object)  # the JobEvent of a finished/failed/cancelled job
    job_started = Signal(str, str)  # (job id, node id): a job began (it reads its turn's instruction now)
    engine_may_change = Signal()  # a job started or ended: an engine may have loaded or unloaded
    jobs_changed = Signal()
    previews_changed = Signal(object)  # set[str] of node ids whose running job's preview came or went

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: dict[str, JobView] = {}
        self._node_of: dict[str, str] = {}
        self._by_node: dict[str, list[str]] = {}
        self.last_event: dict[str, Any] = {}
        self._from_listing: set[str] = set()
        """Failures known only from the queue's listing (a project opened with them), not seen
        failing in this session: they mark their cards but don't call for the queue."""
        self._previews: dict[str, tuple[str, PreviewFrames]] = {}
        """By node: its running job and the newest preview of the clip it is making."""

    def job(self, job_id: str) -> JobView | None:
        return self._jobs.get(job_id)

    def for_node(self, node_id: str) -> JobView | None:
        """The job a card should show: running first, then queued, then a failure."""
        views = [self._jobs[j] for j in self._by_node.get(node_id, ()) if j in self._jobs]
        for wanted in ("running", "queued", "failed"):
            for view in reversed(views):
                if view.status == wanted:
                    return view
        return None

    def pending_for(self, node_id: str) -> tuple[int, int]:
        """How many jobs of ``node_id`` are running and how many are queued (takes on the way)."""
        views = [self._jobs[j] for j in self._by_node.get(node_id, ()) if j in self._jobs]
        return (sum(1 for view in views if view.status == "running"),
                sum(1 for view in views if view.status == "queued"))

    def preview_for(self, node_id: str) -> tuple[str, PreviewFrames] | None:
        """The running job of ``node_id`` and the newest preview of its clip, if its engine
        sent one (engines without previews never do)."""
        return self._previews.get(node_id)

    def _follow_preview(self, event: JobEvent, node_id: str) -> None:
        """Keep the newest preview of each turn's running job; drop it when the job stops
        running (its clip, or its failure, shows instead)."""
        if not node_id:
            return
        held = self._previews.get(node_id)
        running = event.kind in RUNNING
        if running and event.preview is not None and (held is None or held[1] is not event.preview):
            self._previews[node_id] = (event.job_id, event.preview)
            self.previews_changed.emit({node_id})
        elif not running and held is not None and held[0] == event.job_id:
            del self._previews[node_id]
            self.previews_changed.emit({node_id})

    def active_count(self) -> int:
        return sum(1 for v in self._jobs.values() if v.status in ("queued", "running"))

    def on_event(self, event: JobEvent) -> None:
        kind = event.kind
        job_id = event.job_id
        node_id = event.node_id or ""
        self.last_event[job_id] = event
        old = self._jobs.get(job_id)
        if node_id:
            self._remember_node(job_id, node_id)
        self._from_listing.discard(job_id)  # heard of now: watched from here on
        node_id = node_id or self._node_of.get(job_id, "")
        if kind is EventKind.QUEUED:
            self._jobs[job_id] = JobView(job_id, JobStatus.QUEUED, message=event.message)
        elif kind in RUNNING:
            self._jobs[job_id] = running_view(event, old)
        elif kind is EventKind.FAILED:
            self._jobs[job_id] = JobView(job_id, JobStatus.FAILED, error=event.message or event.job.error,
                                         hint=event.hint)
        elif kind in (EventKind.FINISHED, EventKind.CANCELLED):
            self._jobs.pop(job_id, None)
        self._follow_preview(event, node_id)
        if kind is EventKind.STARTED and node_id:
            self.job_started.emit(job_id, node_id)
        if kind in ENDED:
            self.job_finished.emit(event)
        if kind in (EventKind.STARTED, *ENDED, EventKind.INTERRUPTED):
            self.engine_may_change.emit()
        if node_id:
            new = self._jobs.get(job_id)
            if old is not None and new is not None and old.status == new.status:
                self.progressed.emit({node_id})
            else:
                self.nodes_changed.emit({node_id})
        self.jobs_changed.emit()

    def add_existing(self, job: Job) -> None:
        """A job found in the queue when the project opens."""
        if job.status is JobStatus.RUNNING:
            self.on_event(JobEvent(EventKind.STARTED, job))
        elif job.status is JobStatus.QUEUED:
            self.on_event(JobEvent(EventKind.QUEUED, job))
        else:
            self.on_event(JobEvent(EventKind.UPDATED, job))

    def seen_failing(self, job_id: str) -> bool:
        """Whether job ``job_id`` failed while this window watched (not one found at open)."""
        view = self._jobs.get(job_id)
        return view is not None and view.status == "failed" and job_id not in self._from_listing

    def follow_failures(self, jobs: Iterable[Any]) -> None:
        """Make the failures the cards show those the queue lists: ``jobs`` is every job of
        the queue. A failed job found there (a project opened with it) is added; one no longer
        there (the user forgot finished jobs) or retried since is dropped, so that its card's
        failed mark and error go with its line, now, after an undo and after a reopen. (A
        failed export is not added: it is no failure of its turn.)"""
        listed = list(jobs)
        retried = {str(getattr(job, "retry_of", "") or "") for job in listed}
        failures = {job.id: job for job in listed
                    if kind_name(job.status) == "failed" and job.id not in retried and job.node_id}
        changed: set[str] = set()
        for job_id in [j for j, view in self._jobs.items() if view.status == "failed" and j not in failures]:
            del self._jobs[job_id]
            self._from_listing.discard(job_id)
            changed.add(self._node_of.get(job_id, ""))
        for job in failures.values():
            if job.id not in self._jobs and kind_name(getattr(job, "kind", "")) != JobKind.TASK.value:
                self._jobs[job.id] = JobView(job.id, JobStatus.FAILED, error=job.error, hint=job.hint)
                self._from_listing.add(job.id)
                self._remember_node(job.id, job.node_id)
                changed.add(job.node_id)
        changed.discard("")
        if changed:
            self.nodes_changed.emit(changed)

    def _remember_node(self, job_id: str, node_id: str) -> None:
        self._node_of[job_id] = node_id
        ids = self._by_node.setdefault(node_id, [])
        if job_id not in ids:
            ids.append(job_id)

    def forget(self, job_id: str) -> None:
        """Drop a job (e.g. a failure the user retried) and redraw its node."""
        self._jobs.pop(job_id, None)
        self._from_listing.discard(job_id)
        node_id = self._node_of.get(job_id)
        if node_id:
            self.nodes_changed.emit({node_id})
        self.jobs_changed.emit()
