"""The selected branch as a filmstrip: one poster per turn, the selected turn outlined.

A take arriving changes one or two turns of the branch: only their thumbnails are
repainted, and each poster is scaled to the thumbnail once (not on every paint)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QEvent, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QImage, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from studio.ui import palette
from studio.ui.canvas.card_item import card_tooltip, cover_source
from studio.ui.canvas.spoken import SPOKEN_STATUS
from studio.ui.clip_presence import CLIP_MISSING_PILL
from studio.ui.episode.turn_strip import TurnStrip
from studio.ui.media_cache import PosterCache
from studio.ui.node_summary import CardStatus, NodeSummary, excerpt_of, placeholder_label
from studio.ui.text_wrap import plain_tooltip

THUMB_W = 120.0
THUMB_H = 72.0
GAP = 8.0
PAD = 6.0
LABEL_H = 18.0
"""The turn's label under its thumbnail."""
THUMB_CACHE = 400
MARK_H = 14.0
"""The status mark over a thumbnail that shows a picture ("stale", "generating 40%")."""
MARK_FILL = QColor(0, 0, 0, 170)
"""The mark's pill, over a picture of any colour: dark enough that its light text reads at
4.5:1 or more even over a white picture."""
PITCH = THUMB_W + GAP
"""From one turn's tile to the next: the strip scrolls by whole tiles."""
OUTLINE = 3.0
MISSING_FRAME = 3.0
"""The frame, in the failed colour, inside the thumbnail of a turn whose clip file is gone."""
"""The selected turn's outline, drawn around its thumbnail."""
FILMSTRIP_NAME = "Branch filmstrip"
FILMSTRIP_HELP = "Click a turn to select it; double-click it to play the branch from there."


def fit_mark(metrics: QFontMetrics, thumb: QRectF, shown: QRectF, text: str) -> tuple[QRectF, str] | None:
    """Where a thumbnail's status mark goes and what it says: at the top right of the part of
    ``thumb`` that ``shown`` (the strip) shows, whole. In a strip narrower than a thumbnail
    (a small window with the queue open) the mark was cut with the thumbnail ("generatin");
    where it does not fit whole it says less ("40%" for "generating 40%"), and nothing where
    not even that fits. None for no mark."""
    right = min(thumb.right(), shown.right()) - 2
    left = max(thumb.left(), shown.left()) + 2
    for said in dict.fromkeys((text, text.rsplit(" ", 1)[-1])):
        width = metrics.horizontalAdvance(said) + 10
        if said and width <= right - left:
            return QRectF(right - width, thumb.top() + 2, width, MARK_H), said
    return None


def whole_tiles(value: int) -> int:
    """The scroll offset nearest ``value`` that starts the view at a tile's left edge: a tile cut
    at the left lost its number ("quickly fly on broo…" for "1. quickly fly on broomstick")."""
    return int(round(value / PITCH) * PITCH)


def strip_width(count: int, view_width: int) -> int:
    """The strip's width for ``count`` turns in a view ``view_width`` wide: its own, or a little
    more, so that its scroll range is a whole number of tiles (scrolled to its end, the view
    starts at a tile's edge too; the room left over shows past the last turn)."""
    own = int(PAD * 2 + max(1, count) * PITCH)
    if own <= view_width:
        return own
    tiles = -(-(own - view_width) // int(PITCH))  # ceil: the last turn stays whole
    return view_width + tiles * int(PITCH)


def offset_showing(index: int, value: int, view_width: int) -> int:
    """The scroll offset, from ``value``, that shows turn ``index``'s tile whole with the least
    scrolling, starting at a tile's edge."""
    left = PAD - OUTLINE + index * PITCH
    right = PAD + index * PITCH + THUMB_W + OUTLINE
    if value <= left and right <= value + view_width:
        return value
    if left < value:  # cut at the left: the view starts at this tile
        return int(index * PITCH)
    tiles = -(-(right - view_width) // PITCH)  # the fewest tiles scrolled that bring it in
    return int(max(0, tiles) * PITCH)


def spoken_strip(summaries: list[NodeSummary], current: int) -> str:
    """The filmstrip's accessible description: the branch's length and the selected turn
    (what its picture shows a sighted user), then what the mouse does on it."""
    turns = max(0, len(summaries) - 1)
    parts = [f"{turns} turn{'s' if turns != 1 else ''} after the start"]
    if 0 <= current < len(summaries):
        summary = summaries[current]
        if summary.status is CardStatus.START:
            parts.append("The start of the story is selected")
        else:
            what = excerpt_of(summary.excerpt, 80).rstrip(".") or "no instruction yet"  # a sentence ends in one
            parts.append(f"Turn {current} is selected: {what}. {SPOKEN_STATUS[summary.status]}")
            if clip_gone(summary):
                parts.append("Its clip is missing: re-roll it (R)")
    return ". ".join(parts) + f". {FILMSTRIP_HELP}"


MARKED = (CardStatus.STALE, CardStatus.QUEUED, CardStatus.RUNNING, CardStatus.FAILED)
"""The statuses a thumbnail's picture says in a mark: the picture is not (or no longer) what
the turn asks for, or a new one is on its way."""


def clip_gone(summary: NodeSummary) -> bool:
    """Whether the turn's chosen take (done or stale) has lost its clip file: its thumbnail says
    so as its card does, whatever its picture shows (the poster is another file)."""
    return summary.clip_missing and summary.status in (CardStatus.DONE, CardStatus.STALE)


class Filmstrip(TurnStrip):
    turn_activated = Signal(int)

    def __init__(self, posters: PosterCache, resolve: Callable[[str], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.posters = posters
        self.resolve = resolve
        self.summaries: list[NodeSummary] = []
        self.view_width = 0
        """The width of the view the strip scrolls in (0: not in one yet)."""
        self._thumbs: dict[tuple[str, float], tuple[QImage, QImage]] = {}
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        # The keyboard picks turns in the tree (the strip is no Tab stop), but a screen reader
        # reviewing the window finds it: its name says what it is, its description which turn.
        self.setAccessibleName(FILMSTRIP_NAME)
        self.setAccessibleDescription(spoken_strip([], -1))
        # A bound slot, not a lambda: Qt disconnects it when this widget is destroyed (the
        # cache outlives the workspace; a lambda would repaint a deleted widget).
        posters.ready.connect(self.poster_changed)

    def poster_changed(self, path: str) -> None:
        """Repaint the turns showing ``path`` (loaded, or found missing: see :meth:`placeholder_text`)."""
        for index, summary in enumerate(self.summaries):
            if summary.poster_path and self.resolve(summary.poster_path) == path:
                self.update(self._turn_rect(index))

    def set_branch(self, summaries: list[NodeSummary], current: int) -> None:
        old, old_current = self.summaries, self.current
        self.summaries = list(summaries)
        self.current = current
        self._describe()
        if len(old) != len(summaries):
            self.setFixedSize(self.sizeHint())
            self.update()
            return
        for index, summary in enumerate(summaries):
            if summary != old[index] or (index in (current, old_current) and current != old_current):
                self.update(self._turn_rect(index))

    def set_current(self, index: int) -> None:
        old, self.current = self.current, index
        self._describe()
        self._repaint_turns(old, index)

    def _describe(self) -> None:
        text = spoken_strip(self.summaries, self.current)
        if text != self.accessibleDescription():
            self.setAccessibleDescription(text)

    def set_playing(self, index: int) -> None:
        old, self.playing = self.playing, index
        self._repaint_turns(old, index)

    def _repaint_turns(self, old: int, new: int) -> None:
        """Repaint the two turns whose outline moved (nothing if it stayed)."""
        if new != old:
            self.update(self._turn_rect(old))
            self.update(self._turn_rect(new))

    def _turn_rect(self, index: int) -> QRect:
        """What a turn paints: its thumbnail with the outline around it and its label."""
        rect = self.thumb_rect(index).adjusted(-3, -3, 3, LABEL_H)
        return rect.toAlignedRect()

    def _thumbnail(self, path: str, image: QImage, rect: QRectF) -> QImage:
        """``image`` cropped and scaled to ``rect`` once (for this screen's pixel ratio)."""
        ratio = self.devicePixelRatioF()
        key = (path, ratio)
        hit = self._thumbs.get(key)
        if hit is not None and hit[0] is image:
            return hit[1]
        source = cover_source(image.width(), image.height(), rect).toAlignedRect()
        size = QSize(round(rect.width() * ratio), round(rect.height() * ratio))
        thumb = image.copy(source).scaled(size, Qt.AspectRatioMode.IgnoreAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation)
        thumb.setDevicePixelRatio(ratio)
        if len(self._thumbs) >= THUMB_CACHE:
            self._thumbs.clear()
        self._thumbs[key] = (image, thumb)  # the poster is kept so that a reloaded one is noticed
        return thumb

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(strip_width(len(self.summaries), self.view_width), int(THUMB_H + 2 * PAD + LABEL_H))

    def fit_view(self, width: int) -> None:
        """The view showing the strip is ``width`` wide: the strip widens to scroll by whole
        tiles to its end (see :func:`strip_width`)."""
        if width != self.view_width:
            self.view_width = width
            self.setFixedSize(self.sizeHint())

    def thumb_rect(self, index: int) -> QRectF:
        return QRectF(PAD + index * (THUMB_W + GAP), PAD, THUMB_W, THUMB_H)

    def index_at(self, x: float) -> int:
        index = int((x - PAD) // (THUMB_W + GAP))
        return index if 0 <= index < len(self.summaries) else -1

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        exposed = QRectF(event.rect())
        painter.fillRect(exposed, palette.BACKGROUND)
        small = QFont(self.font())
        small.setPointSizeF(7.5)
        painter.setFont(small)
        for index, summary in enumerate(self.summaries):
            rect = self.thumb_rect(index)
            if not QRectF(self._turn_rect(index)).intersects(exposed):
                continue
            image = None
            path = self.resolve(summary.poster_path) if summary.poster_path else ""
            if path:
                image = self.posters.get(path)
            if image is not None:
                painter.drawImage(rect.topLeft(), self._thumbnail(path, image, rect))
            else:
                color = palette.STATUS_COLORS[summary.status] if summary.status == CardStatus.START else (
                    palette.POSTER_EMPTY)
                painter.fillRect(rect, color)
                painter.setPen(palette.TEXT_DIM if summary.status != CardStatus.START else palette.TEXT)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.placeholder_text(index))
            if summary.status == CardStatus.STALE:
                painter.fillRect(rect, QColor(40, 25, 0, 90))
            if image is not None:
                self._paint_mark(painter, rect, self.status_mark(index))
            if clip_gone(summary):  # framed in the failed colour, as its card's pill is: it can't play
                painter.setPen(QPen(palette.STATUS_COLORS[CardStatus.FAILED], MISSING_FRAME))
                painter.setBrush(Qt.BrushStyle.NoBrush)  # inside the playing turn's frame, which stays seen
                inset = 2 + MISSING_FRAME / 2
                painter.drawRect(rect.adjusted(inset, inset, -inset, -inset))
            if index == self.playing:
                painter.setPen(QPen(palette.TEXT, 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.adjusted(1, 1, -1, -1))
            if index == self.current:
                painter.setPen(QPen(palette.CARD_SELECTED, 3))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect.adjusted(-1.5, -1.5, 1.5, 1.5), 4, 4)
            painter.setPen(palette.TEXT_DIM if index != self.current else palette.TEXT)
            label = "Start" if index == 0 else f"{index}. {summary.excerpt}"
            text = painter.fontMetrics().elidedText(label, Qt.TextElideMode.ElideRight, int(THUMB_W))
            painter.drawText(QRectF(rect.left(), rect.bottom() + 2, THUMB_W, 14), Qt.AlignmentFlag.AlignLeft, text)

    def status_mark(self, index: int) -> str:
        """What turn ``index``'s thumbnail says over its picture: its status where the picture
        is not what the turn asks for now or a new one is coming ("stale", "generating 40%");
        "" otherwise. (A stale thumbnail was only tinted a shade darker: it read as done.)"""
        summary = self.summaries[index]
        if clip_gone(summary):  # the more pressing: the turn can't be played nor exported
            return CLIP_MISSING_PILL
        if summary.status not in MARKED:
            return ""
        word = palette.STATUS_LABELS[summary.status]
        done = round(summary.fraction * 100)
        return f"{word} {done}%" if summary.status == CardStatus.RUNNING and 0 < done < 100 else word

    def _paint_mark(self, painter: QPainter, thumb: QRectF, text: str) -> None:
        """``text`` in a dark pill at the top right of ``thumb``'s part in view (nothing for "")."""
        shown = self.visibleRegion().boundingRect()  # a strip wider than the panel's column is cut by it
        placed = fit_mark(painter.fontMetrics(), thumb, QRectF(shown if not shown.isEmpty() else self.rect()), text)
        if placed is None:
            return
        pill, text = placed
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(MARK_FILL)
        painter.drawRoundedRect(pill, MARK_H / 2, MARK_H / 2)
        painter.setPen(palette.ON_IMAGE)  # the pill is dark in both schemes (the scheme's text was dark on it)
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)

    def tooltip_text(self, index: int) -> str:
        """What hovering turn ``index`` says, as its card does: the turn, who acts where, what
        happens, and what its status means (stale, failed and why, queued...). The strip's
        labels give only the action, cut to the thumbnail's width."""
        summary = self.summaries[index]
        if index == 0:
            return plain_tooltip(f"Start\n{summary.excerpt}")
        who = f" · {summary.title}" if summary.title not in ("", "Turn") else ""  # "Turn" names no one
        return card_tooltip(replace(summary, title=f"Turn {index}{who}"), with_title=True)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.index_at(event.pos().x())
            if index >= 0 and self._turn_rect(index).contains(event.pos()):
                QToolTip.showText(event.globalPos(), self.tooltip_text(index), self, self._turn_rect(index))
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def placeholder_text(self, index: int) -> str:
        """What turn ``index``'s thumbnail says while it shows no picture: its status (draft,
        failed, running…), or, for a take, nothing while its poster loads and "picture missing"
        once its file is found gone (not "done", which read as if all were well)."""
        summary = self.summaries[index]
        if summary.status == CardStatus.START:
            return "Start"
        if clip_gone(summary):
            return f"{CLIP_MISSING_PILL}\npress R to re-roll"
        if summary.status not in (CardStatus.DONE, CardStatus.STALE):
            # no picture of its own yet: its status in the card's words ("not generated",
            # "generating"), where the bare "draft" and "running" said it otherwise
            return palette.STATUS_LABELS[summary.status]
        rel = summary.poster_path
        return placeholder_label(summary.status, self.posters.state(rel, self.resolve(rel) if rel else ""))

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        index = self.index_at(event.position().x())
        if index >= 0:
            self.turn_activated.emit(index)
