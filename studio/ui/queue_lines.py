"""How the queue's lines are drawn: two lines of text each, so that a narrow dock keeps them
readable while a job runs.

With a job running, the progress column ("14% · 2 s left") and the status column took about
160 of the 240 pixels the dock has in a 1280x720 window, and every job read "Genera…" (at the
default size, "Generate turn 1…", never what the turn does). Each line is two lines tall: the
job's name wraps onto the second, and the progress, where it has a column, puts its time
left under the percentage, which halves the column's width.

A line is never more than two text lines tall: at 1280x720 the names wrapped to three or four
lines beside the progress column, and a dock showed five jobs. A longer name ends with "…"
on its second line and is read whole in the line's tooltip (and in the selected job's
detail). In a list narrower than :data:`PROGRESS_BESIDE_MIN_WIDTH` (the queue dock of any
window up to a full HD one) the running job's progress goes under its name instead of in a
column of its own, so that every name has the list's width.

In a dock narrower than :data:`STATUS_TEXT_MIN_WIDTH` the status column shows its icon alone
(the word is in the line's tooltip and read out by screen readers): "queued" and "running"
took 80 of the 235 pixels a 1600-pixel window gives the queue, the job's name kept 70, and
lines such as "Re-roll turn 55 · Yuzu gently li…" could not be told apart.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

JOB_COLUMN, STATUS_COLUMN, PROGRESS_COLUMN = 0, 1, 2
NAME_LINES = 2
"""How many text lines a queue line holds: a name longer than that ends with "…" (the line's
tooltip holds it whole). Narrow columns once got three or four, and few jobs were seen."""
ROW_PADDING = 6
STATUS_TEXT_MIN_WIDTH = 400
"""The narrowest list whose status column spells the status out beside its icon."""
PROGRESS_BESIDE_MIN_WIDTH = 280
"""The narrowest list that shows a running job's progress in a column of its own. In a
narrower one (the queue dock is 270 pixels wide at most up to a 1920-pixel window, 186 at
800x600) the progress is the second line of the running job's cell instead, under the first
line of its name: beside the status's icon, the progress column ("0% / estimating…") left
each job's name 52 to 160 pixels, a word or two a line."""
ESTIMATING = "estimating…"
"""What a running job's progress says under its percentage until a time left is known (a
first job of an engine: nothing has timed it yet, and the time left waits for decoding's
pace); without it the line showed a bare percentage, as if the time left were forgotten.
What the engine is doing meanwhile is said in the selected job's detail, whole (the
column has the room of a time left, not of "building the representation")."""


def shown_progress(progress: str) -> str:
    """The progress cell's text as drawn: the percentage, the time left under it (a Unicode
    line separator: an item view draws a plain line feed as nothing)."""
    return progress.replace(" · ", "\u2028")


def status_text_shown(list_width: int) -> bool:
    """Whether a queue list ``list_width`` pixels wide spells its statuses out (else icons alone)."""
    return list_width >= STATUS_TEXT_MIN_WIDTH


def progress_beside(list_width: int) -> bool:
    """Whether a queue list ``list_width`` pixels wide shows the progress in its own column
    (else in the job's cell, over its name)."""
    return list_width >= PROGRESS_BESIDE_MIN_WIDTH


ELIDE_SLACK = 8
"""Pixels left free at the end of a running job's name cut to one line (see :func:`name_over_progress`)."""


def name_over_progress(option: QStyleOptionViewItem, name: str, progress: str) -> str:
    """A running job's cell where the progress has no column: its name cut to one line, then
    the progress ("Re-roll turn 2 · Qiqi gen…" / "42% · 12 s left")."""
    style = option.widget.style() if option.widget is not None else None
    margin = (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, option.widget) + 1) if style else 4
    # a few pixels to spare: a first line that fills the width to the pixel wrapped in the
    # view's own layout, and pushed the progress out of the cell
    room = max(0, option.rect.width() - 2 * margin - ELIDE_SLACK)
    first = option.fontMetrics.elidedText(" ".join(name.split()), Qt.TextElideMode.ElideRight, room)
    return f"{first}\u2028{progress}"


def shown_width(metrics: QFontMetrics, column: int, text: str, *, status_text: bool = True) -> int:
    """The width ``text`` takes in ``column`` as drawn (its widest line); ``status_text``:
    whether the status column spells its text out."""
    if column == STATUS_COLUMN and not status_text:
        return 0
    shown = shown_progress(text) if column == PROGRESS_COLUMN else text
    return max((metrics.horizontalAdvance(line) for line in shown.split("\u2028")), default=0)


class QueueLineDelegate(QStyledItemDelegate):
    """Draws the queue's cells two or more text lines tall: the job's name wrapped, the
    progress on two lines (see the module's docstring). ``header``: the view's, whose job column's width
    says how many lines a name gets."""

    def __init__(self, header: QHeaderView) -> None:
        super().__init__(header)
        self.progress_shown = False
        """Whether a job shows a progress (one runs): in a list too narrow for the progress
        column, each line then holds a line more, for the progress over the name."""

    def text_lines(self) -> int:
        """How many lines of text each queue line holds (:data:`NAME_LINES`, with a progress
        under the running job's name or not)."""
        return NAME_LINES

    def progress_in_column(self) -> bool:
        """Whether the progress has a column of its own now (see :func:`progress_beside`).

        The header is asked for afresh (it is the delegate's parent): a Python reference kept
        from the start could go stale while the header lived on, and the queue then failed
        with "Internal C++ object already deleted" as its column was resized."""
        header = self.parent()
        return progress_beside(header.width()) if isinstance(header, QHeaderView) else True

    def status_text(self) -> bool:
        """Whether the status column spells its text out now (see :func:`status_text_shown`)."""
        header = self.parent()
        return status_text_shown(header.width()) if isinstance(header, QHeaderView) else True

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if index.column() == PROGRESS_COLUMN:
            option.text = shown_progress(option.text)
        elif index.column() == JOB_COLUMN:
            option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
            if not self.progress_in_column():  # the running job's progress under its name's first line
                progress = index.sibling(index.row(), PROGRESS_COLUMN).data()
                if progress:
                    option.text = name_over_progress(option, option.text, progress)
        elif index.column() == STATUS_COLUMN and not self.status_text():
            option.text = ""  # the icon alone: the job's name gets the room

    def sizeHint(self, option: QStyleOptionViewItem,  # noqa: N802
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        lines = QFontMetrics(option.font).lineSpacing() * self.text_lines() + ROW_PADDING
        if index.column() == JOB_COLUMN:  # wrapped to the column's width: as tall as its lines
            return QSize(size.width(), lines)
        return QSize(size.width(), max(size.height(), lines))
