"""The job queue: progress and ETA, cancel, reorder (move up/down), retry, failures.

The list follows ``service.jobs()`` a moment after job events arrive (debounced, so a
fast engine's progress events don't redo it hundreds of times a second); only the lines
that changed are touched.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.errors import StudioError
from studio.core.jobs import JobKind
from studio.ui.cluster_status import ClusterStatusView
from studio.ui.icons import icon
from studio.ui.job_tracker import JobTracker, kind_name
from studio.ui.text_wrap import breakable, copy_without_breaks
from studio.ui.toolbutton import tool_button

REFRESH_MS = 120
RETRY_TIP = "Retry the selected failed, cancelled or interrupted job"
"""Retry's tooltip while no job it could retry is selected."""
RETRY_DELETED_TIP = "Its turn was deleted: undo the delete (Ctrl+Z) to retry it"
RETRYABLE_STATUSES = ("failed", "cancelled", "interrupted")
MAX_FINISHED_SHOWN = 100


CANCEL_KEYS = (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)
"""Keys that cancel the job selected in the list (the Cancel button's keyboard way)."""


def retry_tip(status: str, kind: str) -> str:
    """Retry's tooltip for a selected job in ``status`` (a :class:`JobStatus` value) of ``kind``
    (a :class:`JobKind` value): it names the job's state, and how the retry chooses its seed
    (an interrupted generation runs again as it was; a failed or cancelled one gets a new seed)."""
    if not status:
        return RETRY_TIP
    if status not in RETRYABLE_STATUSES:
        shown = "finished" if status == "done" else status
        return f"A {shown} job can't be retried: only a failed, cancelled or interrupted one can"
    if kind == JobKind.TASK.value:  # an export: no seed to choose
        return "Run the interrupted job again" if status == "interrupted" else f"Retry the {status} job"
    if status == "interrupted":
        return "Run the interrupted job again, with the same seed"
    return f"Retry the {status} job, with a new seed"


def _plain(text: str) -> str:
    """``text`` for a rich-text label: escaped, its long words breakable, and its line breaks
    kept (rich text reads a newline as a space: a multi-line error ran into one line)."""
    return html.escape(breakable(text), quote=False).replace("\n", "<br>")


def summary_text(running: int, queued: int, blocked: int = 0, interrupted: int = 0) -> str:
    """The line above the list: how many jobs run and wait. Blocked and interrupted jobs are
    named only when there are some; "Queue empty" only when no job is waiting at all (an
    interrupted one waits to be retried or cancelled, so the queue isn't empty)."""
    if not (running or queued or blocked or interrupted):
        return "Queue empty"
    counts = [f"{running} running", f"{queued} queued"]
    counts += [f"{blocked} blocked"] if blocked else []
    counts += [f"{interrupted} interrupted"] if interrupted else []
    return " · ".join(counts)


PLAIN_CANCEL = "Cancelled."
"""The error of a job the user cancelled: nothing more to say about it."""


def ended_reason(status: str, error: str) -> str:
    """Why a cancelled or interrupted job (``status``, a :class:`JobStatus` value) won't run,
    from its ``error`` ("" when there is nothing to add to its status)."""
    if status not in ("cancelled", "interrupted") or error.strip() in ("", PLAIN_CANCEL):
        return ""
    return error.strip()


def format_eta(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.0f} s left"
    return f"{seconds / 60:.0f} min left"


class QueuePanel(QWidget):
    error = Signal(object)  # StudioError from a queue operation
    job_selected = Signal(str)  # node id of the selected job
    activity_changed = Signal(bool)  # whether there are jobs to show (queued, running, failed)

    def __init__(self, tracker: JobTracker, describe_job: Callable[[Any], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.service: Any = None
        self.submit: Callable[[Callable[[], Any], Callable[[Any], None]], None] | None = None
        """Runs an operation on the writer thread and its continuation here (the workspace
        sets it); without it, queue operations run on the calling thread."""
        self.tracker = tracker
        self.describe_job = describe_job
        self.on_retry: Callable[[str, str], None] | None = None
        """Told (old job id, new job id) on the writer thread as soon as a job is retried, before
        the new job's events can reach the window (the workspace follows its exports so)."""
        self.turn_exists: Callable[[str], bool] = lambda _node_id: True
        """Whether a turn is in the story now (the workspace sets it): a generation job whose turn
        was deleted can't be retried until an undo brings the turn back."""
        self.has_jobs = False
        self._items: dict[str, QTreeWidgetItem] = {}
        self._rows: dict[str, tuple[str, str, str, str, str]] = {}
        self.list = QTreeWidget(self)
        self.list.setHeaderLabels(["Job", "Status", "Progress"])
        self.list.setRootIsDecorated(False)
        self.list.setAlternatingRowColors(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(40)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Status and progress fit their widest text. Not ResizeToContents: that measures every
        # line again whenever one cell changes (a progress step); these columns only grow,
        # measured when a text wider than any before appears.
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self._widest = {1: 0, 2: 0}
        self.list.itemSelectionChanged.connect(self._on_selection)
        self.list.installEventFilter(self)  # Delete / Backspace cancel, as the Cancel button does
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)  # its markup is ours: see _show_detail
        self.detail.setObjectName("jobDetail")
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        copy_without_breaks(self.detail)
        self.cancel_button = tool_button(icon("cancel"), "Cancel the selected job", self.cancel_selected, self)
        self.up_button = tool_button(icon("up"), "Run earlier", lambda: self.move_selected(-1), self)
        self.down_button = tool_button(icon("down"), "Run later", lambda: self.move_selected(1), self)
        self.retry_button = tool_button(icon("retry"), RETRY_TIP, self.retry_selected, self)
        self.clear_button = tool_button(icon("delete"), "Forget finished jobs", self.clear_finished, self)
        self.summary = QLabel("Queue empty", self)
        self.summary.setObjectName("dimLabel")
        buttons = QHBoxLayout()
        for button in (self.cancel_button, self.up_button, self.down_button, self.retry_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(buttons)
        layout.addWidget(self.summary)  # its own line: a narrow dock keeps the buttons whole
        self.cluster = ClusterStatusView(self)  # the cluster's actors, when the queue runs on one
        layout.addWidget(self.cluster)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.detail)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        tracker.jobs_changed.connect(self._timer.start)
        self._update_buttons()

    def document_changed(self) -> None:
        """Turns were edited, added or removed: the lines name them again (a deleted turn's
        job says so, an edited one's says what it does now), a moment later."""
        self._timer.start()

    def set_service(self, service: Any) -> None:
        self.service = service
        self.cluster.set_service(service)
        self.refresh()

    # -- contents -------------------------------------------------------------------------

    def jobs(self) -> list[Any]:
        if self.service is None:
            return []
        jobs = self.service.jobs(include_finished=True)
        active = [j for j in jobs if not j.finished]
        finished = [j for j in jobs if j.finished][-MAX_FINISHED_SHOWN:]
        return active + list(reversed(finished))

    def _waits(self, running: bool) -> dict[str, str]:
        """Why queued jobs can't run now, by job id: those waiting for an interrupted job
        (*blocked*), and, while nothing runs, those whose engine this machine can't run (they
        stay queued for a machine that can)."""
        if self.service is None:
            return {}
        out = {job_id: self._waits_for(blocker) for job_id, blocker in self.service.blocked().items()}
        if not running:
            unrunnable = self.service.unrunnable_engines()
            for job in self.service.jobs():
                reasons = unrunnable.get(job.engine)
                if reasons and kind_name(job.status) == "queued" and job.id not in out:
                    out[job.id] = (f"Waits: the {job.engine} engine can't run here ({reasons[0]}). Run the queue "
                                   "on a machine that can, or cancel it.")
        return out

    def _waits_for(self, blocker: Any) -> str:
        """Why a job waits for the interrupted ``blocker``: its short id first (two jobs for one
        turn have one title), then its title."""
        return (f"Waits for the interrupted job {str(blocker.id)[:10]} \u201c{self.describe_job(blocker)}\u201d: "
                "retry it or cancel it.")

    def _row(self, job: Any, waits: str = "") -> tuple[str, str, str, str, str]:
        """What a job's line shows: label, status, progress, the tooltip and the status icon.
        ``waits``: why a queued job can't run now (its status then reads *blocked*)."""
        status = kind_name(job.status)
        label = self.describe_job(job)
        progress = ""
        if status == "queued" and waits:
            return label, "blocked", "", waits, "pause"
        view = self.tracker.job(job.id)
        if status == "running":
            fraction = view.fraction if view else job.progress
            eta = view.eta_s if view else job.eta_s
            progress = " · ".join(p for p in (f"{fraction * 100:.0f}%", format_eta(eta)) if p)
        tip = job.error + (f"\nHint: {job.hint}" if job.hint else "")
        icon_name = {"running": "generate", "failed": "cancel", "queued": "loop"}.get(status, "")
        return label, status, progress, tip, icon_name

    def refresh(self) -> None:
        """Bring the list in line with the queue, touching only the lines that changed (a
        job that ends moves one line; rebuilding every line each time costs a visible frame)."""
        selected = self.selected_job_id()
        current_line = self.list.currentItem()
        self.list.blockSignals(True)
        queued = running = attention = 0
        jobs = self.jobs()
        wanted = [job.id for job in jobs]
        keep = set(wanted)
        for job_id in [j for j in self._items if j not in keep]:
            item = self._items.pop(job_id)
            self._rows.pop(job_id, None)
            index = self.list.indexOfTopLevelItem(item)
            if index >= 0:
                self.list.takeTopLevelItem(index)
        # Lines in the wrong place are set aside and put back where they belong.
        aside: set[str] = set()
        position = 0
        while position < len(wanted):
            current = self.list.topLevelItem(position)
            job_id = wanted[position]
            line = self._items.get(job_id)
            if line is None:
                line = QTreeWidgetItem(["", "", ""])
                line.setData(0, Qt.ItemDataRole.UserRole, job_id)
                self._items[job_id] = line
                self.list.insertTopLevelItem(position, line)
            elif current is not line:
                if job_id in aside or current is None:
                    aside.discard(job_id)
                    self.list.insertTopLevelItem(position, line)
                else:  # the wanted line is further down: set this one aside
                    aside.add(str(current.data(0, Qt.ItemDataRole.UserRole)))
                    self.list.takeTopLevelItem(position)
                    continue
            position += 1
        self._keep_current(current_line)
        grow: set[int] = set()
        waits = self._waits(any(kind_name(job.status) == "running" for job in jobs))
        blocked = interrupted = 0
        for job in jobs:
            row = self._row(job, waits.get(job.id, ""))
            label, status, progress, tip, icon_name = row
            queued += status == "queued"
            blocked += status == "blocked"
            running += status == "running"
            interrupted += status == "interrupted"
            attention += status == "interrupted" or (status == "failed" and self.tracker.job(job.id) is not None)
            item = self._items[job.id]
            old = self._rows.get(job.id)
            if old != row:
                self._rows[job.id] = row
                for column, text in enumerate((label, status, progress)):
                    if old is None or old[column] != text:
                        item.setText(column, text)
                        if column in self._widest:
                            grow.add(column)
                item.setToolTip(0, tip or label)
                item.setToolTip(2, tip or progress)
                if old is None or old[4] != icon_name:
                    item.setIcon(1, icon(icon_name))
            if (job.id == selected) != item.isSelected():
                item.setSelected(job.id == selected)
        self.list.blockSignals(False)
        self._fit_columns(grow, jobs)
        self.summary.setText(summary_text(running, queued, blocked, interrupted))
        self._show_detail(self._selected_job())
        self._update_buttons()
        has_jobs = bool(queued or running or attention or blocked)
        if has_jobs != self.has_jobs:
            self.has_jobs = has_jobs
            self.activity_changed.emit(has_jobs)

    def _keep_current(self, line: QTreeWidgetItem | None) -> None:
        """Make ``line`` (the current line before a refresh) current again if it is still listed.
        A line set aside to reorder the list loses the keyboard's place: after "Run later" the
        arrow keys went on from the line that took its place, not from the selected job."""
        if line is None or self.list.indexOfTopLevelItem(line) < 0 or self.list.currentItem() is line:
            return
        self.list.setCurrentItem(line, 0, QItemSelectionModel.SelectionFlag.NoUpdate)

    def _fit_columns(self, columns: set[int], jobs: list[Any]) -> None:
        """Widen the status or progress column if one of its texts got wider than any before."""
        metrics = self.list.fontMetrics()
        for column in columns:
            widest = max((metrics.horizontalAdvance(self._rows[job.id][column]) for job in jobs), default=0)
            if widest > self._widest[column] or self.list.header().sectionSize(column) < self._widest[column]:
                self._widest[column] = max(widest, self._widest[column])
                self.list.resizeColumnToContents(column)

    def selected_job_id(self) -> str | None:
        items = self.list.selectedItems()
        return str(items[0].data(0, Qt.ItemDataRole.UserRole)) if items else None

    def select_job(self, job_id: str) -> None:
        for index in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(index)
            if item is not None:
                item.setSelected(item.data(0, Qt.ItemDataRole.UserRole) == job_id)

    def _selected_job(self) -> Any:
        job_id = self.selected_job_id()
        if job_id is None or self.service is None:
            return None
        try:
            return self.service.job(job_id)
        except StudioError:
            return None

    def _on_selection(self) -> None:
        job = self._selected_job()
        self._show_detail(job)
        if job is not None and job.node_id:
            self.job_selected.emit(job.node_id)
        self._update_buttons()

    def _show_detail(self, job: Any) -> None:
        """The line under the list, for the selected ``job`` (None: empty). Shown again at each
        refresh, so that it follows the job (a selected job that fails says why at once). The
        job's words (the turn's instruction, an error quoting a path or ``<class ...>``) are
        shown as written, never read as markup, and a long word wraps rather than widen the dock."""
        if job is None:
            text = ""
        elif kind_name(job.status) == "failed":
            text = f"<b style='color:#ff7a7a'>Failed:</b> {_plain(job.error)}"
            if job.hint:
                text += f"<br><b>Hint:</b> {_plain(job.hint)}"
        else:
            text = _plain(f"{self.describe_job(job)} · engine {job.engine or '—'} · seed {job.seed}")
            reason = ended_reason(kind_name(job.status), job.error)
            if reason:  # why it will not run (a deleted turn, a failed turn above): not only in a tooltip
                text = f"<b>{kind_name(job.status).capitalize()}:</b> {_plain(reason)}<br>{text}"
        if self.detail.text() != text:
            self.detail.setText(text)

    def _update_buttons(self) -> None:
        job = self._selected_job()
        status = kind_name(job.status) if job is not None else ""
        self.cancel_button.setEnabled(status in ("queued", "running", "interrupted"))
        place, queued = self._run_order_place(job.id) if job is not None and status == "queued" else (-1, 0)
        self.up_button.setEnabled(place > 0)  # the first to run can't run earlier, the last later
        self.down_button.setEnabled(0 <= place < queued - 1)
        retryable = status in RETRYABLE_STATUSES
        turn_gone = retryable and job.kind is not JobKind.TASK and not (job.node_id and self.turn_exists(job.node_id))
        self.retry_button.setEnabled(retryable and not turn_gone)
        kind = kind_name(job.kind) if retryable else ""
        self.retry_button.setToolTip(RETRY_DELETED_TIP if turn_gone else retry_tip(status, kind))

    # -- operations ----------------------------------------------------------------------

    def _run(self, operation: Callable[[], Any], then: Callable[[Any], None] | None = None) -> None:
        """Run a queue operation (it writes the job store) on the writer thread through
        :attr:`submit`; the list is refreshed and ``then(result)`` runs here once it is
        done. A refused operation's error is shown by the window."""
        def done(result: Any) -> None:
            self.refresh()
            if then is not None:
                then(result)

        if self.submit is not None:
            self.submit(operation, done)
            return
        try:
            result = operation()
        except StudioError as error:
            self.error.emit(error)
            self.refresh()
            return
        done(result)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Delete (Backspace on keyboards without one) on the list cancels the selected job,
        as the Cancel button does, and only where it would: a keyboard way to cancel."""
        if watched is self.list and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() in CANCEL_KEYS and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            if self.cancel_button.isEnabled():
                self.cancel_selected()
            return True  # not passed on: no other meaning of Delete reaches past the queue
        return super().eventFilter(watched, event)

    def cancel_selected(self) -> None:
        job_id = self.selected_job_id()
        service = self.service
        if job_id and service is not None:
            self._run(lambda: service.cancel(job_id))

    def _queued_in_run_order(self) -> list[str]:
        service = self.service
        return [] if service is None else [j.id for j in service.jobs() if kind_name(j.status) == "queued"]

    def _run_order_place(self, job_id: str) -> tuple[int, int]:
        """The queued job's place in the run order (-1 when it isn't queued) and how many are."""
        queued = self._queued_in_run_order()
        return (queued.index(job_id) if job_id in queued else -1), len(queued)

    def move_selected(self, delta: int) -> None:
        job_id = self.selected_job_id()
        service = self.service
        if not job_id or service is None:
            return
        queued = self._queued_in_run_order()
        if job_id in queued:
            index = max(0, queued.index(job_id) + delta)
            self._run(lambda: service.move(job_id, index), lambda _result: self.select_job(job_id))

    def retry_selected(self) -> None:
        job_id = self.selected_job_id()
        service = self.service
        if not job_id or service is None:
            return
        # An interrupted job runs again as it was (same seed); a failed one gets a new seed.
        interrupted = kind_name(service.job(job_id).status) == "interrupted"

        def retried(new_id: str) -> None:
            self.tracker.forget(job_id)
            self.select_job(new_id)

        def retry() -> str:
            new_id = str(service.retry(job_id, same_seed=interrupted))
            if self.on_retry is not None:
                self.on_retry(job_id, new_id)
            return new_id

        self._run(retry, retried)

    def clear_finished(self) -> None:
        service = self.service
        if service is not None:
            self._run(service.clear_finished)
