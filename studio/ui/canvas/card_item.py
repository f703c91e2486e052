"""One node of the tree as a card: poster, instruction excerpt, state bars, status.

Painting picks a level of detail from the view's transform. Near the default zoom a card
shows everything; zoomed out to see a whole tree it keeps a large poster and its title
(drawn in a font scaled up so it still reads about 12 px high) and drops the small text;
further out only the poster and the state bars remain, so a screen full of cards stays
cheap.
Hovering a card that has a clip cycles the clip's frames in the poster box.
A card with turns after it has a small fold control on its right edge, where its edges
leave: a click folds those turns away ("−") or shows them again ("+"); a folded card says
how many turns it hides ("+3 turns").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from studio.core.state import STAT_NAMES, STATE_MAX
from studio.ui import palette
from studio.ui.canvas.geometry import (
    CARD_H,
    CARD_W,
    FULL_DETAIL,
    MARGIN,
    MIN_TITLE_PX,
    POSTER,
    POSTER_DETAIL,
    RADIUS,
)
from studio.ui.clip_presence import CLIP_MISSING_CARD_TIP, CLIP_MISSING_PILL
from studio.ui.node_summary import CardStatus, NodeSummary, cut_to_chars, placeholder_label
from studio.ui.text_wrap import plain_tooltip, starts_right_to_left

if TYPE_CHECKING:
    from studio.ui.canvas.tree_scene import TreeScene

HOVER_FRAME_MS = 110
# Pixel sizes, not points: the scene is drawn at the view's zoom, so at the default zoom
# (1.0) card text is exactly this many pixels high whatever the screen's DPI.
TITLE_PX = 14
BODY_PX = 12
BADGE_PX = 11
_TITLE_FONT = QFont()
_TITLE_FONT.setPixelSize(TITLE_PX)
_TITLE_FONT.setBold(True)
_BODY_FONT = QFont()
_BODY_FONT.setPixelSize(BODY_PX)
_BADGE_FONT = QFont()
_BADGE_FONT.setPixelSize(BADGE_PX)
_BADGE_FONT.setBold(True)
TIP_ERROR_LINES = 12
"""A failed take's error in a card's tooltip stops after this many lines (a whole traceback
made a tooltip taller than the screen); the queue shows all of it."""
TIP_LINE_CHARS = 300
RING_RADIUS = 22.0
BACKDROP = QColor(20, 22, 32, 200)
"""Behind text drawn over a poster (the take count, the progress ring): it reads over a dark or a
bright picture in either scheme."""


FAILED_MARK_PX = 30
_FAILED_MARK_AREA = QRectF(POSTER.left(), POSTER.top(), POSTER.width(), POSTER.height() * 0.62)
_FAILED_LABEL_AREA = QRectF(POSTER.left(), _FAILED_MARK_AREA.bottom() - 6, POSTER.width(),
                            POSTER.bottom() - _FAILED_MARK_AREA.bottom() + 6)


def star_polygon(center: QPointF, outer: float, inner: float) -> QPolygonF:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(QPointF(center.x() + radius * math.cos(angle), center.y() + radius * math.sin(angle)))
    return QPolygonF(points)


def cover_source(image_w: int, image_h: int, target: QRectF) -> QRectF:
    """Source rect that fills ``target`` with the image, cropping the overflow (CSS cover)."""
    target_ratio = target.width() / target.height()
    if image_w / max(1, image_h) > target_ratio:
        w = image_h * target_ratio
        return QRectF((image_w - w) / 2, 0, w, image_h)
    h = image_w / target_ratio
    return QRectF(0, (image_h - h) / 2, image_w, h)


STATUS_TIPS: dict[CardStatus, str] = {
    CardStatus.STALE: "Stale: made before a turn above it changed. Re-roll it (R) to make it follow "
                      "the story as it is now.",
    CardStatus.QUEUED: "Queued: waiting in the queue to be made.",
    CardStatus.RUNNING: "Generating: {percent}% done.",
}
"""What a card's status label means, in its tooltip (the label alone said "stale" and not what
to do about it). A failed turn's tooltip shows its error instead."""


OWN_EDIT_STALE_TIP = ("Stale: made before this turn's instruction was edited. Re-roll it (R) to make a take of "
                      "the instruction as it is now.")
"""A stale turn whose own instruction changed since its take was made: "a turn above it
changed" was wrong for the very turn that was edited."""


def status_tip(summary: NodeSummary) -> str:
    if summary.status == CardStatus.STALE and summary.edited_since_take:
        return OWN_EDIT_STALE_TIP
    tip = STATUS_TIPS.get(summary.status, "")
    return tip.format(percent=int(summary.fraction * 100)) if tip else ""


def card_tooltip(summary: NodeSummary, *, with_title: bool = False) -> str:
    """A card's tooltip: its instruction's excerpt, then its take's error with the hint saying
    what to do about it, what its status means (stale, queued, generating), and engine
    warnings. A card made for a turn whose take already failed (a project opened, a delete
    undone) says so as one updated later does. ``with_title`` starts it with the card's title
    (a cell of the zoomed-out map shows none)."""
    warned = f"{summary.warnings} engine warning(s): see the inspector" if summary.warnings else ""
    excerpt = "\n".join(line for line in (summary.title, summary.excerpt) if line) if with_title \
        else summary.excerpt
    gone = CLIP_MISSING_CARD_TIP if summary.clip_missing else ""
    parts = (excerpt, _tip_error(summary.error, summary.hint), gone, status_tip(summary), warned)
    return plain_tooltip("\n\n".join(part for part in parts if part))


def _tip_error(error: str, hint: str = "") -> str:
    """``error``'s first lines (each one shortened), how many more the queue shows, and the
    hint on one shortened line, as the inspector shows it under the error."""
    lines = error.strip().splitlines()
    shown = [cut_to_chars(line, TIP_LINE_CHARS) for line in lines[:TIP_ERROR_LINES]]
    left_out = len(lines) - len(shown)
    if left_out:
        shown.append(f"… {left_out} more line{'s' if left_out > 1 else ''}: the queue shows the whole error")
    hint = " ".join(hint.split())
    if shown and hint:
        shown.append(cut_to_chars(f"Hint: {hint}", TIP_LINE_CHARS))
    return "\n".join(shown)


PILL_H, PILL_GAP, PILL_INSET = 16.0, 4.0, 6.0
BADGES_RIGHT = POSTER.left() + 36 + 9
"""Where the bookmark star and the warning badge end, at the poster's top left."""


@dataclass(frozen=True)
class Pill:
    """A label over a card's poster: the turn's status, or how many takes it has."""

    text: str
    rect: QRectF
    status: bool


def status_pills(summary: NodeSummary) -> list[Pill]:
    """The labels over a card's poster and where they go, right to left along its top: the
    status (stale, queued, failed), then the take count when the turn has several takes. A
    stale turn's count was left out (the status took its place), so a turn re-rolled before
    its parent changed no longer said it had other takes. A running turn shows its ring."""
    metrics = QFontMetrics(_BADGE_FONT)
    pills: list[Pill] = []
    right = POSTER.right() - PILL_INSET

    def place(text: str, status: bool) -> None:
        nonlocal right
        width = metrics.horizontalAdvance(text) + 12
        pills.append(Pill(text, QRectF(right - width, POSTER.top() + PILL_INSET, width, PILL_H), status))
        right -= width + PILL_GAP

    if summary.clip_missing and summary.status in (CardStatus.DONE, CardStatus.STALE):
        place(CLIP_MISSING_PILL, True)  # the more pressing: the turn can't play or export
    elif summary.status in (CardStatus.STALE, CardStatus.QUEUED, CardStatus.FAILED):
        place(palette.STATUS_LABELS[summary.status], True)
    count = summary.take_count
    if count > 1 and summary.status != CardStatus.RUNNING:
        # Thousands of takes beside a status would reach the bookmark star and warning badge:
        # then the bare number says it.
        fits = right - metrics.horizontalAdvance(f"{count} takes") - 12 >= BADGES_RIGHT + PILL_GAP
        place(f"{count} takes" if fits else f"{count}", False)
    return pills


def line_alignment(text: str) -> Qt.AlignmentFlag:
    """Where a line of ``text`` starts: at the right for Hebrew or Arabic, whatever the window's
    own direction (a right-to-left title at the card's left edge read as misplaced)."""
    side = Qt.AlignmentFlag.AlignRight if starts_right_to_left(text) else Qt.AlignmentFlag.AlignLeft
    return side | Qt.AlignmentFlag.AlignAbsolute


FOLD_RADIUS = 9.0
FOLD_CENTER = QPointF(CARD_W, CARD_H / 2)
"""The fold control sits on the card's right edge, on its out port (where its edges leave)."""
FOLD_HIT = QRectF(FOLD_CENTER.x() - FOLD_RADIUS - 3, FOLD_CENTER.y() - FOLD_RADIUS - 3,
                  2 * FOLD_RADIUS + 6, 2 * FOLD_RADIUS + 6)
"""Where a press toggles the fold: the control and a few pixels around it."""


def hidden_label(count: int) -> str:
    """A folded card's badge: how many turns the fold hides."""
    return f"+{count} turn{'' if count == 1 else 's'}"


def fold_tooltip(hidden: int) -> str:
    """The fold control's tooltip: what a click on it does (Z does the same to the selected turn)."""
    if hidden:
        return f"Unfold: show the {hidden_label(hidden)[1:]} after this one again (Z)"
    return "Fold the turns after this one out of the way (Z)"


def hidden_badge_rect(count: int) -> QRectF:
    """The badge's place: the poster's bottom right corner (the status pills are at its top)."""
    width = QFontMetrics(_BADGE_FONT).horizontalAdvance(hidden_label(count)) + 12
    return QRectF(POSTER.right() - PILL_INSET - width, POSTER.bottom() - PILL_INSET - PILL_H, width, PILL_H)


class CardItem(QGraphicsItem):
    """A node's card. Geometry is fixed; the scene positions it from the layout."""

    def __init__(self, summary: NodeSummary, scene_ref: TreeScene) -> None:
        super().__init__()
        self.summary = summary
        self._scene_ref = scene_ref
        self.current = False
        self.search_hit = False
        self.in_branch = False
        self._hovered = False
        self._hover_frame = 0
        self.foldable = False
        """The turn has turns after it: the card shows its fold control."""
        self.hidden = 0
        """How many turns its fold hides (0: not folded)."""
        self.setAcceptHoverEvents(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, False)
        # Repainting an unchanged card blits its cached pixmap instead of calling paint()
        # in Python (which would also have to win the GIL back from the worker thread).
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(card_tooltip(summary))

    @property
    def node_id(self) -> str:
        return self.summary.node_id

    # -- state ----------------------------------------------------------------------------

    def set_summary(self, summary: NodeSummary) -> None:
        if summary != self.summary:
            self.summary = summary
            self.setToolTip(card_tooltip(summary))
            self.update()

    def set_flags(self, *, current: bool | None = None, search_hit: bool | None = None,
                  in_branch: bool | None = None) -> None:
        changed = False
        for name, value in (("current", current), ("search_hit", search_hit), ("in_branch", in_branch)):
            if value is not None and getattr(self, name) != value:
                setattr(self, name, value)
                changed = True
        if changed:
            self.update()

    def set_fold(self, foldable: bool, hidden: int) -> None:
        """Whether the card shows its fold control, and how many turns its fold hides."""
        if (foldable, hidden) != (self.foldable, self.hidden):
            self.foldable, self.hidden = foldable, hidden
            self.update()

    @property
    def folded(self) -> bool:
        return self.hidden > 0

    # -- geometry -------------------------------------------------------------------------

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        # wide enough for the fold control, which reaches past the card's right edge
        return QRectF(-4, -4, CARD_W + FOLD_RADIUS + 12, CARD_H + 8)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(QRectF(0, 0, CARD_W, CARD_H), RADIUS, RADIUS)
        if self.foldable:
            path.addEllipse(FOLD_HIT)
        return path

    def on_fold_control(self, pos: QPointF) -> bool:
        """Whether ``pos`` (the card's coordinates) is on its fold control."""
        return self.foldable and FOLD_HIT.contains(pos)

    # -- painting -------------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if lod >= FULL_DETAIL:
            self._paint_full(painter, lod)
        else:
            self._paint_zoomed_out(painter, lod, with_title=lod >= POSTER_DETAIL)

    def _frame_pen(self) -> QPen:
        if self.current:
            return QPen(palette.CARD_SELECTED, 3)
        if self.search_hit:
            return QPen(palette.SEARCH_HIT, 3)
        if self.in_branch:
            return QPen(palette.CARD_SELECTED.darker(150), 1.5)
        return QPen(palette.CARD_BORDER, 1)

    def _paint_zoomed_out(self, painter: QPainter, lod: float, *, with_title: bool) -> None:
        """A large poster, the title scaled up to stay readable, the state bars; no small text."""
        s = self.summary
        frame = self._frame_pen()
        frame.setWidthF(frame.widthF() / max(lod, 0.05) * 0.6)  # stays visible on screen
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(frame)
        painter.setBrush(palette.CARD)
        painter.drawRoundedRect(QRectF(0, 0, CARD_W, CARD_H), RADIUS, RADIUS)
        bars_h = 22.0
        title_px = min(44.0, MIN_TITLE_PX / max(lod, 0.05)) if with_title else 0.0
        title_h = title_px * 1.25 if with_title else 0.0
        poster = QRectF(MARGIN, MARGIN, CARD_W - 2 * MARGIN, CARD_H - 3 * MARGIN - bars_h - title_h)
        self._paint_poster(painter, poster)
        if s.status not in (CardStatus.DONE, CardStatus.START, CardStatus.DRAFT):
            color = QColor(palette.STATUS_COLORS[s.status])
            painter.fillRect(QRectF(poster.left(), poster.top(), poster.width(), poster.height() * 0.22), color)
        if with_title:
            font = QFont(_TITLE_FONT)
            font.setPixelSize(max(1, round(title_px)))
            painter.setFont(font)
            painter.setPen(palette.TEXT)
            text_rect = QRectF(MARGIN, poster.bottom() + 2, CARD_W - 2 * MARGIN, title_h)
            title = QFontMetrics(font).elidedText(self._short_title(), Qt.TextElideMode.ElideRight,
                                                  int(text_rect.width()))
            painter.drawText(text_rect, line_alignment(title) | Qt.AlignmentFlag.AlignVCenter, title)
        self._paint_bars(painter, QRectF(MARGIN, CARD_H - MARGIN - bars_h, CARD_W - 2 * MARGIN, bars_h), thin=False)
        self._paint_fold(painter)

    def _short_title(self) -> str:
        """What a zoomed-out card can say: the character (the place is in the picture)."""
        s = self.summary
        return s.title.split(" · ")[0] if s.status != CardStatus.START else "Start"

    def _paint_full(self, painter: QPainter, lod: float) -> None:
        s = self.summary
        rect = QRectF(0, 0, CARD_W, CARD_H)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(self._frame_pen())
        painter.setBrush(palette.CARD_HOVER if self._hovered else palette.CARD)
        painter.drawRoundedRect(rect, RADIUS, RADIUS)
        self._paint_poster(painter, POSTER)
        self._paint_status(painter)
        if s.bookmarked:
            painter.setPen(QPen(QColor("#1b1d26"), 1))
            painter.setBrush(palette.SEARCH_HIT)
            painter.drawPolygon(star_polygon(POSTER.topLeft() + QPointF(14, 14), 8, 3.6))
        if s.warnings:
            self._paint_warning_badge(painter)
        # Text: title (character · place) and the motion.
        text_w = CARD_W - 2 * MARGIN
        painter.setPen(palette.TEXT)
        painter.setFont(_TITLE_FONT)
        title = QFontMetrics(_TITLE_FONT).elidedText(s.title, Qt.TextElideMode.ElideRight, int(text_w))
        painter.drawText(QRectF(MARGIN, POSTER.bottom() + 2, text_w, TITLE_PX + 4), line_alignment(title), title)
        painter.setPen(palette.TEXT_DIM)
        painter.setFont(_BODY_FONT)
        body = QFontMetrics(_BODY_FONT).elidedText(s.excerpt, Qt.TextElideMode.ElideRight, int(text_w))
        painter.drawText(QRectF(MARGIN, POSTER.bottom() + TITLE_PX + 5, text_w, BODY_PX + 4),
                         line_alignment(body), body)
        self._paint_bars(painter, QRectF(MARGIN, CARD_H - 19, CARD_W - 2 * MARGIN - 42, 14), thin=True)
        self._paint_motion(painter, QRectF(CARD_W - MARGIN - 36, CARD_H - 19, 36, 14))
        if self.hidden:
            badge = hidden_badge_rect(self.hidden)
            self._paint_pill(painter, Pill(hidden_label(self.hidden), badge, False), BACKDROP, palette.ON_IMAGE)
        self._paint_fold(painter)

    def _paint_fold(self, painter: QPainter) -> None:
        """The fold control: "−" folds the turns after this one, "+" shows them again."""
        if not self.foldable:
            return
        painter.setPen(QPen(palette.CARD_SELECTED if self.folded else palette.CARD_BORDER, 1.5))
        painter.setBrush(palette.CARD_HOVER if self.folded else palette.CARD)
        painter.drawEllipse(FOLD_CENTER, FOLD_RADIUS, FOLD_RADIUS)
        pen = QPen(palette.TEXT, 2)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        arm = FOLD_RADIUS * 0.5
        x, y = FOLD_CENTER.x(), FOLD_CENTER.y()
        painter.drawLine(QPointF(x - arm, y), QPointF(x + arm, y))
        if self.folded:
            painter.drawLine(QPointF(x, y - arm), QPointF(x, y + arm))

    def _paint_warning_badge(self, painter: QPainter) -> None:
        """A '!' in the poster's top-right corner: the engine warned about this take."""
        center = POSTER.topLeft() + QPointF(36 if self.summary.bookmarked else 14, 14)
        painter.setPen(QPen(QColor("#1b1d26"), 1))
        painter.setBrush(QColor("#f0a030"))
        painter.drawEllipse(center, 9, 9)
        painter.setPen(QColor("#1b1d26"))
        painter.setFont(_TITLE_FONT)
        painter.drawText(QRectF(center.x() - 9, center.y() - 9, 18, 18), Qt.AlignmentFlag.AlignCenter, "!")

    def _poster_image(self) -> QImage | None:
        s = self.summary
        if self._hovered and s.clip_path:
            clip = self._scene_ref.clip_frames(s.clip_path)
            if clip:
                frames = clip[0]
                return frames[self._hover_frame % len(frames)]
        return self._scene_ref.poster(s.poster_path) if s.poster_path else None

    def _paint_poster(self, painter: QPainter, area: QRectF) -> None:
        path = QPainterPath()
        path.addRoundedRect(area, RADIUS - 4, RADIUS - 4)
        painter.save()
        painter.setClipPath(path)
        image = self._poster_image()
        if image is not None and not image.isNull():
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            painter.drawImage(area, image, cover_source(image.width(), image.height(), area))
            if self.summary.status == CardStatus.STALE:
                painter.fillRect(area, QColor(30, 20, 0, 110))
        else:
            self._paint_placeholder(painter, area)
        painter.restore()

    def _paint_placeholder(self, painter: QPainter, area: QRectF = POSTER) -> None:
        s = self.summary
        if s.status == CardStatus.START:
            gradient_top, gradient_bottom = QColor("#3b2f7a"), QColor("#a0457a")
        else:
            gradient_top, gradient_bottom = palette.POSTER_EMPTY, palette.POSTER_EMPTY.lighter(115)
        gradient = QLinearGradient(area.topLeft(), area.bottomLeft())
        gradient.setColorAt(0, gradient_top)
        gradient.setColorAt(1, gradient_bottom)
        painter.fillRect(area, QBrush(gradient))
        painter.setPen(palette.ON_IMAGE if s.status == CardStatus.START else palette.TEXT_DIM)
        font = QFont(_TITLE_FONT)
        font.setPixelSize(20 if s.status == CardStatus.START else BODY_PX)
        painter.setFont(font)
        if area != POSTER:  # zoomed out: the card's title says it, small text can't be read
            return
        label = placeholder_label(s.status, self._scene_ref.poster_state(s.poster_path))
        # A failed turn's "!" takes the box's middle (_paint_status): the label goes under it.
        label_area = _FAILED_LABEL_AREA if s.status == CardStatus.FAILED else area
        painter.drawText(label_area, Qt.AlignmentFlag.AlignCenter, label)

    def _paint_status(self, painter: QPainter) -> None:
        s = self.summary
        if s.status == CardStatus.RUNNING:
            self._paint_ring(painter, s.fraction)
            return
        for pill in status_pills(s):
            if pill.status:
                # a missing clip is said in the failed colour: the turn can't play or export
                colour = palette.STATUS_COLORS[CardStatus.FAILED if pill.text == CLIP_MISSING_PILL else s.status]
                self._paint_pill(painter, pill, colour, QColor("#14151c"))
            else:
                self._paint_pill(painter, pill, BACKDROP, palette.ON_IMAGE)
        if s.status == CardStatus.FAILED:
            painter.setPen(QPen(palette.FAILED_MARK, 3))
            font = QFont(_TITLE_FONT)
            font.setPixelSize(FAILED_MARK_PX)
            painter.setFont(font)
            painter.drawText(_FAILED_MARK_AREA, Qt.AlignmentFlag.AlignCenter, "!")

    def _paint_pill(self, painter: QPainter, pill: Pill, background: QColor, foreground: QColor) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(background)
        painter.drawRoundedRect(pill.rect, 8, 8)
        painter.setPen(foreground)
        painter.setFont(_BADGE_FONT)
        painter.drawText(pill.rect, Qt.AlignmentFlag.AlignCenter, pill.text)

    def _paint_ring(self, painter: QPainter, fraction: float) -> None:
        """The progress ring on a dark disc, its track and figure in light colours: a re-roll
        runs over the turn's picture, and the scheme's own text and track colours vanished on
        a bright picture (dark scheme) or a dark one (light scheme)."""
        center = POSTER.center()
        ring = QRectF(center.x() - RING_RADIUS, center.y() - RING_RADIUS, 2 * RING_RADIUS, 2 * RING_RADIUS)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(BACKDROP)
        painter.drawEllipse(center, RING_RADIUS + 6, RING_RADIUS + 6)
        painter.setPen(QPen(QColor(255, 255, 255, 50), 5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(ring)
        pen = QPen(palette.ACCENT, 5)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawArc(ring, 90 * 16, -int(360 * 16 * max(0.03, fraction)))
        painter.setPen(palette.ON_IMAGE)
        painter.setFont(_BADGE_FONT)
        painter.drawText(ring, Qt.AlignmentFlag.AlignCenter, f"{int(fraction * 100)}%")

    def _paint_bars(self, painter: QPainter, area: QRectF, *, thin: bool) -> None:
        state = self.summary.state
        gap = 2.0 if thin else 3.0
        height = (area.height() - 2 * gap) / 3
        for index, name in enumerate(STAT_NAMES):
            y = area.top() + index * (height + gap)
            track = QRectF(area.left(), y, area.width(), height)
            painter.fillRect(track, palette.TRACK)
            if state is None:  # not generated: no state to show, the tracks stay empty
                continue
            value = getattr(state, name) / STATE_MAX
            painter.fillRect(QRectF(track.left(), y, track.width() * value, height), palette.STAT_COLORS[name])

    def _paint_motion(self, painter: QPainter, area: QRectF) -> None:
        level = self.summary.motion_level
        painter.setPen(Qt.PenStyle.NoPen)
        for i in range(5):
            h = 4 + i * 3.0
            bar = QRectF(area.left() + i * 7.5, area.bottom() - h, 5, h)
            active = level is not None and i < level
            painter.setBrush(palette.ACCENT if active else palette.TRACK)
            painter.drawRoundedRect(bar, 1.5, 1.5)

    # -- interaction ----------------------------------------------------------------------

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802
        self._hovered = True
        if self.summary.clip_path:
            self._scene_ref.clip_frames(self.summary.clip_path)
            self._scene_ref.start_hover_frames(self)
        self.update()

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802
        """Over the fold control the tooltip says what a click does, else the card's own."""
        tip = fold_tooltip(self.hidden) if self.on_fold_control(event.pos()) else card_tooltip(self.summary)
        if tip != self.toolTip():
            self.setToolTip(tip)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:  # noqa: N802
        self.setToolTip(card_tooltip(self.summary))
        self._hovered = False
        self._scene_ref.stop_hover_frames(self)
        self._hover_frame = 0
        self.update()

    def next_hover_frame(self) -> None:
        """The next frame of the clip (the scene's hover timer, while the mouse is on the card)."""
        self._hover_frame += 1
        self.update()

    @property
    def hover_frame(self) -> int:
        return self._hover_frame

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton and self.on_fold_control(event.pos()):
            self._scene_ref.toggle_fold(self.node_id)  # as an outliner's triangle: no selection
            event.accept()
            return
        if event.button() in (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton):
            self._scene_ref.node_clicked.emit(self.node_id)
            event.accept()
        else:
            super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton and self.on_fold_control(event.pos()):
            self._scene_ref.toggle_fold(self.node_id)  # a quick second click on the control toggles again
            event.accept()
            return
        self._scene_ref.node_activated.emit(self.node_id)
        event.accept()

    def contextMenuEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        self._scene_ref.node_context_menu.emit(self.node_id, event.screenPos())
        event.accept()
