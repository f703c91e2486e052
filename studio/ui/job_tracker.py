"""The GUI's view of generation jobs, kept up to date from job events.

Cards ask it "is a job running for this node, how far along?"; the queue panel asks it
for ETAs and messages. It only ever runs on the GUI thread (fed by the JobEventBridge).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from studio.ui.node_summary import JobView


def kind_name(kind: Any) -> str:
    return str(getattr(kind, "value", kind))


def _text(event: Any, name: str) -> str:
    return str(getattr(event, name, "") or "")


class JobTracker(QObject):
    """Latest known state of every job, indexed by job and by node."""

    nodes_changed = Signal(object)  # set[str] of node ids whose job status changed
    progressed = Signal(object)  # set[str] of node ids whose running job moved on (same status)
    job_finished = Signal(object)  # the JobEvent of a finished/failed/cancelled job
    jobs_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs: dict[str, JobView] = {}
        self._node_of: dict[str, str] = {}
        self._by_node: dict[str, list[str]] = {}
        self.last_event: dict[str, Any] = {}

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

    def active_count(self) -> int:
        return sum(1 for v in self._jobs.values() if v.status in ("queued", "running"))

    def on_event(self, event: Any) -> None:
        kind = kind_name(event.kind)
        job_id = str(event.job_id)
        node_id = str(event.node_id or "")
        self.last_event[job_id] = event
        old = self._jobs.get(job_id)
        if node_id:
            self._node_of[job_id] = node_id
            ids = self._by_node.setdefault(node_id, [])
            if job_id not in ids:
                ids.append(job_id)
        node_id = node_id or self._node_of.get(job_id, "")
        if kind == "queued":
            self._jobs[job_id] = JobView(job_id, "queued", message=_text(event, "message"))
        elif kind in ("started", "progress", "predicted"):
            total = int(getattr(event, "total", 0) or 0)
            step = int(getattr(event, "step", 0) or 0)
            fraction = min(1.0, max(0.0, step / total)) if total else (old.fraction if old else 0.0)
            self._jobs[job_id] = JobView(job_id, "running", fraction, _text(event, "message"),
                                         eta_s=getattr(event, "eta_s", None))
        elif kind == "failed":
            error = _text(event, "message") or _text(event, "error")
            self._jobs[job_id] = JobView(job_id, "failed", error=error, hint=_text(event, "hint"))
        elif kind in ("finished", "cancelled"):
            self._jobs.pop(job_id, None)
        if kind in ("finished", "failed", "cancelled"):
            self.job_finished.emit(event)
        if node_id:
            new = self._jobs.get(job_id)
            if old is not None and new is not None and old.status == new.status:
                self.progressed.emit({node_id})
            else:
                self.nodes_changed.emit({node_id})
        self.jobs_changed.emit()

    def forget(self, job_id: str) -> None:
        """Drop a job (e.g. a failure the user retried) and redraw its node."""
        self._jobs.pop(job_id, None)
        node_id = self._node_of.get(job_id)
        if node_id:
            self.nodes_changed.emit({node_id})
        self.jobs_changed.emit()
