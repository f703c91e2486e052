"""The job queue: progress and ETA, cancel, reorder (move up/down), retry, failures.

The list follows ``service.jobs()`` a moment after job events arrive (debounced, so a
fast engine's progress events don't redo it hundreds of times a second); only the lines
that changed are touched.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection
from typing import Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from studio.core.errors import StudioError
from studio.core.jobs import JobKind
from studio.ui.cluster_status import ClusterStatusView
from studio.ui.icons import icon
from studio.ui.job_labels import where_it_runs
from studio.ui.job_tracker import JobTracker, kind_name
from studio.ui.queue_cancel import (
    CASCADE_CANCEL,
    WAITING,
    CancelOutcome,
    ask_yes_or_cancel,
    cancel_question,
    cancel_with_followers,
    followers,
)
from studio.ui.queue_lines import (
    ESTIMATING,
    PROGRESS_COLUMN,
    STATUS_COLUMN,
    QueueLineDelegate,
    progress_beside,
    shown_width,
    status_text_shown,
)
from studio.ui.text_wrap import breakable, copy_without_breaks
from studio.ui.toolbutton import tool_button

REFRESH_MS = 120
RETRY_TIP = "Retry the selected failed, cancelled or interrupted job"
"""Retry's tooltip while no job it could retry is selected."""
RETRY_DELETED_TIP = "Its turn was deleted: undo the delete (Ctrl+Z) to retry it"
RETRYABLE_STATUSES = ("failed", "cancelled", "interrupted")
CANCELLABLE_STATUSES = ("queued", "running", "interrupted")
PROGRESS_SLACK = 2
"""Pixels the progress column is given past Qt's fit of its widest text: that fit rounds the
text's width, and "estimating…" measured 75.9 of the 76 pixels it left, one font away from
being cut to "estimat…"."""
MAX_FINISHED_SHOWN = 100
HEADING_MARGIN = 8
"""Pixels on each side of a column's heading (the style's header margins, about)."""


MOVE_REFUSALS = {
    "running": "it started meanwhile",
    "done": "it finished meanwhile",
    "failed": "it failed meanwhile",
    "cancelled": "it was cancelled meanwhile",
    "interrupted": "it was interrupted meanwhile",
    "forgotten": "it is no longer in the queue",
}
"""Why Run earlier / Run later left a job where it was: it left the queue between the press
and the move, by its status then."""


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


def retried_tip(new_id: str) -> str:
    """Retry's tooltip for a job retried already (as job ``new_id``): a second retry would
    generate the turn twice."""
    return f"Already retried as job {new_id[:10]}: retry that one if it fails too"


def retry_note(retried: int, skipped: list[str]) -> str:
    """What Retry did with the selected jobs: how many it retried, and each one it skipped
    with why (a job that finished, was cancelled, removed or retried meanwhile)."""
    if not skipped:
        return ""
    done = f"Retried {retried} job(s); skipped" if retried else "Nothing was retried; skipped"
    return f"{done} {len(skipped)}: " + "; ".join(skipped)


DETAIL_LINES = 8
DETAIL_CHARS = 800
"""How much of an error the line under the list shows: a long traceback pushed the list
out of a docked queue. The rest is in that line's tooltip."""


def first_lines(text: str, lines: int = DETAIL_LINES, chars: int = DETAIL_CHARS) -> tuple[str, bool]:
    """``text`` cut to its first ``lines`` lines and ``chars`` characters, saying how much was
    left out; and whether it was cut."""
    kept = text.splitlines()[:lines]
    cut = "\n".join(kept)[:chars]
    if cut == text.rstrip("\n") or cut == text:
        return text, False
    more = len(text.splitlines()) - len(cut.splitlines())
    rest = f"{more} more line(s)" if more > 0 else "more"
    return f"{cut.rstrip()}\n… ({rest}: hover here for the whole text)", True


def _plain(text: str) -> str:
    """``text`` for a rich-text label: escaped, its long words breakable, and its line breaks
    kept (rich text reads a newline as a space: a multi-line error ran into one line)."""
    return html.escape(breakable(text), quote=False).replace("\n", "<br>")


def summary_text(running: int, queued: int, blocked: int = 0, interrupted: int = 0, finished: int = 0) -> str:
    """The line above the list: how many jobs run and wait. Blocked and interrupted jobs are
    named only when there are some; "No jobs waiting" only when none runs or waits (an
    interrupted one waits to be retried or cancelled), with the finished jobs still listed
    counted after it ("Queue empty" read wrong above a list of them)."""
    if not (running or queued or blocked or interrupted):
        return "No jobs waiting" + (f" · {finished:,} finished" if finished else "")
    counts = [f"{running:,} running", f"{queued:,} queued"]
    counts += [f"{blocked:,} blocked"] if blocked else []
    counts += [f"{interrupted:,} interrupted"] if interrupted else []
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
    message = Signal(str)  # for the status bar: what a cancel did

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
        self.confirm: Callable[[str, str], bool] = lambda title, text: ask_yes_or_cancel(self, title, text)
        """Asks before a cancel that takes other jobs along (the workspace sets the window's)."""
        self.announced_cancels: set[str] = set()
        """Jobs whose cancel this panel tells of itself (with the jobs that went with them)."""
        self._retried: dict[str, str] = {}
        """Jobs retried from this panel, old id to new id (an export's retry names no
        ``retry_of``): each is retried once, however fast Retry is pressed."""
        self._items: dict[str, QTreeWidgetItem] = {}
        self._rows: dict[str, tuple[str, str, str, str, str]] = {}
        self.list = QTreeWidget(self)
        self.list.setAccessibleName("Generation queue")
        self.list.setHeaderLabels(["Job", "Status", "Progress"])
        self.list.setRootIsDecorated(False)
        self.list.setAlternatingRowColors(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setWordWrap(True)
        self.list.setUniformRowHeights(True)  # every line is as tall (QueueLineDelegate)
        self._lines = QueueLineDelegate(self.list.header())
        self.list.setItemDelegate(self._lines)
        self._line_count = self._lines.text_lines()
        # several jobs at once (Shift/Ctrl+click, Shift+arrows): Cancel and Retry act on each
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.list.header()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(24)  # a status shown by its icon alone (see _follow_list_width)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Status and progress fit their widest text. Not ResizeToContents: that measures every
        # line again whenever one cell changes (a progress step); these columns only grow,
        # measured when a text wider than any before appears.
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self._widest = {1: 0, 2: 0}
        self._status_words = True
        """Whether the status column last spelled its text out (see ``_follow_list_width``)."""
        header.sectionResized.connect(self._follow_name_width)
        header.geometriesChanged.connect(self._follow_list_width)
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
        self.retry_button = tool_button(icon("retry"), RETRY_TIP, self.retry_selected, self,
                                        name="Retry the selected job")
        self.clear_button = tool_button(icon("delete"), "Forget finished jobs", self.clear_finished, self,
                                        name="Forget finished jobs")
        self.summary = QLabel(summary_text(0, 0), self)
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
        self.note = QLabel(self)
        """What the last Retry or Cancel left undone, and why (hidden when nothing)."""
        self.note.setObjectName("queueNote")
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.hide()
        layout.addWidget(self.note)
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
        """The jobs listed, in the list's order."""
        return self._shown(self._every_job())

    def _every_job(self) -> list[Any]:
        return [] if self.service is None else list(self.service.jobs(include_finished=True))

    @staticmethod
    def _shown(jobs: list[Any]) -> list[Any]:
        """The lines of ``jobs``: those waiting or running first, then the newest finished."""
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
        tip = job.error + (f"\nHint: {job.hint}" if job.hint else "")
        if status == "running":
            fraction = view.fraction if view else job.progress
            eta = view.eta_s if view else job.eta_s
            progress = f"{fraction * 100:.0f}% · {format_eta(eta) or ESTIMATING}"
            where = where_it_runs(self._where(job), progress)
            tip = f"{label}\n{where}" if where else tip  # the dock is narrow: where it runs is told here
        icon_name = {"running": "generate", "failed": "cancel", "queued": "loop"}.get(status, "")
        return label, status, progress, tip, icon_name

    def _where(self, job: Any) -> str:
        """Where a running ``job`` runs: its device, or the render farm's node and actor ("" when
        the service does not say)."""
        where = getattr(self.service, "where", None)
        return str(where(job.id) or "") if callable(where) else ""

    def refresh(self) -> None:
        """Bring the list in line with the queue, touching only the lines that changed (a
        job that ends moves one line; rebuilding every line each time costs a visible frame)."""
        selected = set(self.selected_job_ids())
        current_line = self.list.currentItem()
        self.list.blockSignals(True)
        queued = running = attention = 0
        every_job = self._every_job()
        self.tracker.follow_failures(every_job)  # a card's failed mark goes with its job's line
        self._offer_forgetting(any(job.finished for job in every_job))
        jobs = self._shown(every_job)
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
            attention += status == "interrupted" or (status == "failed" and self.tracker.seen_failing(job.id))
            item = self._items[job.id]
            old = self._rows.get(job.id)
            if old != row:
                self._rows[job.id] = row
                for column, text in enumerate((label, status, progress)):
                    if old is None or old[column] != text:
                        item.setText(column, text)
                        if column in self._widest:
                            grow.add(column)
                # the whole name first (two lines of it are shown, a longer one cut), then the rest
                item.setToolTip(0, tip if tip.startswith(label) else f"{label}\n{tip}" if tip else label)
                item.setToolTip(1, tip or status)  # the word, where the column shows the icon alone
                item.setToolTip(2, tip or progress)
                if old is None or old[4] != icon_name:
                    item.setIcon(1, icon(icon_name))
            if (job.id in selected) != item.isSelected():
                item.setSelected(job.id in selected)
        self.list.blockSignals(False)
        # No job shows progress (nothing runs): the column's header alone took a third of a
        # narrow dock and cut every job's name to "Generat…". It comes back with a running job.
        idle = not any(self._rows[job.id][2] for job in jobs)
        self._lines.progress_shown = not idle
        # in a very narrow list the progress is drawn over the running job's name instead
        hidden = idle or not progress_beside(self.list.header().width())
        if hidden != self.list.isColumnHidden(2):
            self.list.setColumnHidden(2, hidden)
            if not hidden:
                grow.add(2)
        self._fit_columns(grow - ({2} if hidden else set()), jobs)
        self._follow_line_count()
        finished = len(jobs) - running - queued - blocked - interrupted
        self.summary.setText(summary_text(running, queued, blocked, interrupted, finished))
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
        # the list's width may have changed unseen (a hidden dock is laid out without a resize
        # of it): the status column's form follows first, so that it is fitted in that form
        self._follow_list_width()
        words = self._status_words
        for column in columns:
            widest = max((self._shown_width(metrics, column, self._rows[job.id][column], words)
                          for job in jobs), default=0)
            if widest > self._widest[column] or self.list.header().sectionSize(column) < self._widest[column]:
                self._widest[column] = max(widest, self._widest[column])
                self._fit_column(column, words)
                if column == PROGRESS_COLUMN:  # Qt's fit is measured in whole pixels, drawn in fractions
                    header = self.list.header()
                    header.resizeSection(column, header.sectionSize(column) + PROGRESS_SLACK)

    def _shown_width(self, metrics: QFontMetrics, column: int, text: str, words: bool) -> int:
        """What a cell of ``column`` needs beside its margins: its text's width, or, for a
        status shown by its icon alone (``words`` false), the icon's."""
        if column == STATUS_COLUMN and not words:
            size = self.list.iconSize().width()
            if size <= 0:  # the view's default: the style's small icons
                size = self.list.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, self.list)
            return size if text else 0
        return shown_width(metrics, column, text)

    def _follow_list_width(self) -> None:
        """The list got narrow or wide enough for the status column to switch between its
        icon alone and the icon with its word, or for the progress to move between its own
        column and the running job's cell: the columns fit again."""
        hidden = not self._lines.progress_shown or not progress_beside(self.list.header().width())
        if hidden != self.list.isColumnHidden(PROGRESS_COLUMN):
            self.list.setColumnHidden(PROGRESS_COLUMN, hidden)
            if not hidden:
                self._fit_column(PROGRESS_COLUMN, True)
                header = self.list.header()
                header.resizeSection(PROGRESS_COLUMN, header.sectionSize(PROGRESS_COLUMN) + PROGRESS_SLACK)
            self._follow_line_count()
        words = status_text_shown(self.list.header().width())
        if words == self._status_words:
            return
        self._status_words = words
        heading = self.list.headerItem()
        heading.setText(STATUS_COLUMN, "Status" if words else "")  # the word alone kept the column wide
        heading.setToolTip(STATUS_COLUMN, "" if words else "Status (hover a line for its word)")
        jobs = [job_id for job_id in self._rows if job_id in self._items]
        metrics = self.list.fontMetrics()
        self._widest[STATUS_COLUMN] = max((self._shown_width(metrics, STATUS_COLUMN, self._rows[j][1], words)
                                           for j in jobs), default=0)
        self._fit_column(STATUS_COLUMN, words)
        self.list.doItemsLayout()

    def _fit_column(self, column: int, words: bool) -> None:
        """Fit ``column`` to its cells (and its heading, unless the status column shows icons
        alone). Not Qt's resizeColumnToContents: that also counts the heading's size as the
        header last measured it, and the status column, fitted to "Status" while the list was
        still wide, kept about 80 of a 230-pixel list when it went to icons alone: each job's
        name got about 45 pixels, a word a line ("Re- / roll / turn / 5 · …")."""
        size = self.list.sizeHintForColumn(column)
        if column != STATUS_COLUMN or words:
            heading = self.list.headerItem()
            metrics = self.list.header().fontMetrics()
            size = max(size, metrics.horizontalAdvance(heading.text(column)) + 2 * HEADING_MARGIN)
        self.list.header().resizeSection(column, size)

    def _follow_name_width(self, column: int, _old: int, _new: int) -> None:
        """The job column got narrow or wide enough to change how many text lines the
        queue's lines hold: they are laid out again at their new height."""
        if column == 0:
            self._follow_line_count()

    def _follow_line_count(self) -> None:
        """Lay the lines out again if they now hold another number of text lines (the job
        column's width changed, or a progress came or went over a name)."""
        if self._lines.text_lines() != self._line_count:
            self._line_count = self._lines.text_lines()
            self.list.doItemsLayout()

    def selected_job_ids(self) -> list[str]:
        """The selected jobs' ids, in the list's order."""
        lines = (self.list.topLevelItem(index) for index in range(self.list.topLevelItemCount()))
        return [str(line.data(0, Qt.ItemDataRole.UserRole)) for line in lines if line is not None and line.isSelected()]

    def selected_job_id(self) -> str | None:
        """The first selected job's id (None: none selected)."""
        selected = self.selected_job_ids()
        return selected[0] if selected else None

    def select_jobs(self, job_ids: Collection[str]) -> None:
        """Select the jobs ``job_ids`` (only those), the first of them current."""
        wanted = set(job_ids)
        first: QTreeWidgetItem | None = None
        for index in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(index)
            if item is None:
                continue
            chosen = item.data(0, Qt.ItemDataRole.UserRole) in wanted
            if chosen and first is None:
                first = item
            if item.isSelected() != chosen:
                item.setSelected(chosen)
        if first is not None and self.list.currentItem() not in (first, *self.list.selectedItems()):
            self.list.setCurrentItem(first, 0, QItemSelectionModel.SelectionFlag.NoUpdate)

    def select_job(self, job_id: str) -> None:
        """Select job ``job_id`` alone."""
        self.select_jobs([job_id])

    def _selected_jobs(self) -> list[Any]:
        """The selected jobs as the queue has them now (one removed meanwhile is left out)."""
        if self.service is None:
            return []
        jobs = []
        for job_id in self.selected_job_ids():
            try:
                jobs.append(self.service.job(job_id))
            except (StudioError, StopIteration):
                continue
        return jobs

    def _selected_job(self) -> Any:
        """The selected job when exactly one is selected, else None."""
        jobs = self._selected_jobs()
        return jobs[0] if len(jobs) == 1 else None

    def _on_selection(self) -> None:
        job = self._selected_job()
        self._show_detail(job)
        self._say("")  # a note about the last Retry belongs to the jobs it was about
        if job is not None and job.node_id:
            self.job_selected.emit(job.node_id)
        self._update_buttons()

    def _say(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def _show_detail(self, job: Any) -> None:
        """The line under the list, for the selected ``job`` (None: empty). Shown again at each
        refresh, so that it follows the job (a selected job that fails says why at once). The
        job's words (the turn's instruction, an error quoting a path or ``<class ...>``) are
        shown as written, never read as markup, and a long word wraps rather than widen the dock."""
        count = len(self.selected_job_ids())
        whole = ""
        if job is None:
            text = f"{count} jobs selected" if count > 1 else ""
        elif kind_name(job.status) == "failed":
            error, cut = first_lines(job.error)
            whole = job.error if cut else ""
            text = f"<b style='color:#ff7a7a'>Failed:</b> {_plain(error)}"
            if job.hint:
                text += f"<br><b>Hint:</b> {_plain(job.hint)}"
        else:
            running = kind_name(job.status) == "running"
            where = self._where(job) if running else ""
            runs = f" · runs on {where}" if where else ""
            step = self._step(job.id) if running else ""
            text = _plain(f"{self.describe_job(job)} · engine {job.engine or '—'} · seed {job.seed}{step}{runs}")
            reason = ended_reason(kind_name(job.status), job.error)
            if reason:  # why it will not run (a deleted turn, a failed turn above): not only in a tooltip
                text = f"<b>{kind_name(job.status).capitalize()}:</b> {_plain(reason)}<br>{text}"
        if self.detail.text() != text:
            self.detail.setText(text)
        if self.detail.toolTip() != whole:
            self.detail.setToolTip(whole)

    def _step(self, job_id: str) -> str:
        """" · what the engine is doing now" for a running job ("loading the mini engine",
        "frame 3/17"), from its last progress report; "" when it said nothing. The line's
        progress column only says "estimating…" while no time left is known: this says why."""
        view = self.tracker.job(job_id)
        message = " ".join(view.message.split()) if view is not None else ""
        return f" · {message}" if message else ""

    def _offer_forgetting(self, any_finished: bool) -> None:
        """"Forget finished jobs" only while there are some: pressed with none it did nothing."""
        self.clear_button.setEnabled(any_finished)
        self.clear_button.setToolTip("Forget finished jobs" if any_finished else "No finished jobs to forget")

    def _update_buttons(self) -> None:
        jobs = self._selected_jobs()
        job = jobs[0] if len(jobs) == 1 else None
        status = kind_name(job.status) if job is not None else ""
        self.cancel_button.setEnabled(any(kind_name(j.status) in CANCELLABLE_STATUSES for j in jobs))
        place, queued = self._run_order_place(job.id) if job is not None and status == "queued" else (-1, 0)
        self.up_button.setEnabled(place > 0)  # the first to run can't run earlier, the last later
        self.down_button.setEnabled(0 <= place < queued - 1)
        retries = self._retries()
        refusals = {j.id: self._retry_refusal(j, retries) for j in jobs}
        can_retry = [job_id for job_id, refusal in refusals.items() if not refusal]
        self.retry_button.setEnabled(bool(can_retry))
        if len(jobs) > 1:
            tip = (f"Retry {len(can_retry)} of the {len(jobs)} selected jobs (the others can't be retried)"
                   if can_retry else "None of the selected jobs can be retried")
        elif job is not None and refusals[job.id]:
            tip = refusals[job.id]
        else:
            tip = retry_tip(status, kind_name(getattr(job, "kind", "")))
        self.retry_button.setToolTip(tip)

    def _retries(self) -> dict[str, str]:
        """Every retried job's id, with its retry's: those of the queue (``retry_of``), and
        those retried from this panel."""
        retries = {str(getattr(j, "retry_of", "") or ""): j.id for j in self._every_job()}
        retries.pop("", None)
        return {**retries, **self._retried}

    def _retry_refusal(self, job: Any, retries: dict[str, str]) -> str:
        """Why ``job`` can't be retried now ("" when it can): its state, its deleted turn, or
        a retry of it already made."""
        status, kind = kind_name(job.status), kind_name(getattr(job, "kind", ""))
        if status not in RETRYABLE_STATUSES:
            return retry_tip(status, kind)
        if job.id in retries:
            return retried_tip(retries[job.id])
        if kind != JobKind.TASK.value and not (job.node_id and self.turn_exists(job.node_id)):
            return RETRY_DELETED_TIP
        return ""

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
        if watched is self.list and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self, self._follow_list_width)  # once the header has its new width
        if watched is self.list and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() in CANCEL_KEYS and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            if self.cancel_button.isEnabled():
                self.cancel_selected()
            return True  # not passed on: no other meaning of Delete reaches past the queue
        return super().eventFilter(watched, event)

    def cancel_selected(self) -> None:
        """Cancel every selected job that is waiting, running or interrupted; one that ended
        meanwhile is left as it is. When other jobs continue from them (the turns after one in
        a branch re-roll), which are cancelled with them, ask first, and then say in one line
        what was cancelled (see :mod:`studio.ui.queue_cancel`)."""
        job_ids = self.selected_job_ids()
        service = self.service
        if not job_ids or service is None:
            return
        jobs = list(service.jobs())
        titles = {job.id: self.describe_job(job) for job in jobs if job.id in job_ids}
        following = followers(job_ids, jobs)
        if following:
            chosen = [titles[job.id] for job in jobs if job.id in titles
                      and kind_name(job.status) in CANCELLABLE_STATUSES]
            if chosen and not self.confirm(*cancel_question(chosen, len(following))):
                return
            # the status bar hears of them from here; a running one says so itself when it stops
            self.announced_cancels.update(job.id for job in jobs if job.id in titles
                                          and kind_name(job.status) in WAITING)

        def cancel() -> CancelOutcome:
            return cancel_with_followers(job_ids, self._current, lambda: service.jobs(include_finished=True),
                                         service.cancel,
                                         lambda job: titles.get(job.id) or self.describe_job(job))

        def cancelled(outcome: CancelOutcome) -> None:
            if following:
                words = outcome.words()
                if words:
                    self.message.emit(words)

        self._run(cancel, cancelled)

    def tells_of_cancel(self, job_id: str, message: str) -> bool:
        """Whether this panel says in its own line that job ``job_id`` was cancelled (the window
        then says nothing of it): a job cancelled here with the jobs that continue from it, or
        one of those (``message``: its cancel's words, which say so). The failure or the
        cancel that took them along is the news, not each of them."""
        if job_id in self.announced_cancels:
            self.announced_cancels.discard(job_id)
            return True
        return message.startswith(CASCADE_CANCEL)

    def _current(self, job_id: str) -> Any:
        """Job ``job_id`` as the queue has it now; None once it is forgotten."""
        try:
            return None if self.service is None else self.service.job(job_id)
        except (StudioError, StopIteration):
            return None

    def _queued_in_run_order(self) -> list[str]:
        service = self.service
        return [] if service is None else [j.id for j in service.jobs() if kind_name(j.status) == "queued"]

    def _run_order_place(self, job_id: str) -> tuple[int, int]:
        """The queued job's place in the run order (-1 when it isn't queued) and how many are."""
        queued = self._queued_in_run_order()
        return (queued.index(job_id) if job_id in queued else -1), len(queued)

    def move_selected(self, delta: int) -> None:
        """Move the selected job ``delta`` places later in the run order (earlier when
        negative). The places are counted on the writer, in the queue as it is then: a job
        that started or ended since the list was drawn, or a press not shown yet, does not
        make it land a place off. A job that left the queue meanwhile stays, and the note
        under the summary says why."""
        job_id = self.selected_job_id()
        service = self.service
        if not job_id or service is None:
            return

        def move() -> str:
            job = self._current(job_id)
            status = "forgotten" if job is None else kind_name(job.status)
            if status != "queued":
                return status
            service.move_by(job_id, delta)
            return ""

        def moved(left: str) -> None:
            if left:
                self._say(f"Job {job_id} was not moved: {MOVE_REFUSALS.get(left, f'it is {left} now')}.")
            else:
                self.select_job(job_id)

        self._run(move, moved)

    def retry_selected(self) -> None:
        """Retry each selected job that can still be retried when the writer gets to it (a job
        may finish, be cancelled, forgotten or retried between the selection and the press),
        once; the note under the summary names those skipped and why."""
        job_ids = self.selected_job_ids()
        if not job_ids or self.service is None:
            return

        def retried(outcome: tuple[dict[str, str], list[str]]) -> None:
            new_ids, skipped = outcome
            for old_id in new_ids:
                self.tracker.forget(old_id)
            if new_ids:
                self.select_jobs(list(new_ids.values()))
            self._say(retry_note(len(new_ids), skipped))

        self._run(lambda: self._retry_each(job_ids), retried)

    def _retry_each(self, job_ids: list[str]) -> tuple[dict[str, str], list[str]]:
        """On the writer (so no job changes meanwhile): retry each of ``job_ids`` that can be
        retried now. Returns the new job of each retried one, and why each other was skipped."""
        service = self.service
        new_ids: dict[str, str] = {}
        skipped: list[str] = []
        for job_id in job_ids:
            job = self._current(job_id)
            refusal = "it is no longer in the queue" if job is None or service is None \
                else self._retry_refusal(job, self._retries())
            if refusal:
                skipped.append(f"job {job_id[:10]} ({refusal.rstrip('.')})")
                continue
            # an interrupted job runs again as it was (same seed); a failed one gets a new seed
            same_seed = kind_name(job.status) == "interrupted"
            try:
                new_id = str(service.retry(job_id, same_seed=same_seed))
            except StudioError as error:  # its engine can't run here now, an export of another session...
                skipped.append(f"job {job_id[:10]} ({error.message.rstrip('.')})")
                continue
            self._retried[job_id] = new_id
            new_ids[job_id] = new_id
            if self.on_retry is not None:
                self.on_retry(job_id, new_id)
        return new_ids, skipped

    def clear_finished(self) -> None:
        service = self.service
        if service is not None:
            self._run(service.clear_finished)
