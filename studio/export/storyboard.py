"""The storyboard sheet, in the manner of Storyboarder's: large panels with their full
text (dialogue, narration, action, shot notes), 1, 2 or 3 panels per page, the branch's
title, page numbers.

Layouts: 1 per page (landscape: a large panel, its text in two columns below), 2 per
page (landscape: two columns, text below each panel) and 3 per page (portrait: three
rows, text beside each panel, as a shooting script). Panels are 16:9 or the clip's own
shape. The font shrinks (down to :data:`MIN_TEXT_SIZE`) until all of a panel's text fits;
then text flows on into the panel's second column; what still has no room goes on in a
continuation panel right after it, headed "Turn 3 (continued)", on the same page or the
next: no text is ever left out (see :func:`set_turn_text` and :func:`lay_out_sheet`).

Everything is measured in points from the page's top-left corner and drawn through a
:class:`SheetCanvas`, so the PDF and the PNG renderers draw the same page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from PIL import Image

from studio.core.sentence import plural
from studio.core.state import STAT_NAMES
from studio.export.bidi_text import starts_right_to_left
from studio.export.branch import Branch, Turn
from studio.export.drawing import STAT_LABELS, fit_line, wrap_text
from studio.export.timeline import cut_seconds

A4_LANDSCAPE = (841.89, 595.28)
A4_PORTRAIT = (595.28, 841.89)
MARGIN = 34.0
HEADER = 46.0
FOOTER = 22.0
GUTTER = 18.0
TITLE_SIZE = 17.0
SMALL_SIZE = 8.5
MAX_TEXT_SIZE = 11.0
MIN_TEXT_SIZE = 6.0
WIDE = 9 / 16
PANELS_PER_PAGE = (1, 2, 3)

Colour = tuple[int, int, int]
INK: Colour = (28, 28, 36)
MUTED: Colour = (112, 112, 124)
RULE: Colour = (190, 190, 200)
PANEL_BACK: Colour = (236, 236, 240)
ACCENT: Colour = (196, 64, 96)


class TextStyle(StrEnum):
    REGULAR = "regular"
    BOLD = "bold"
    ITALIC = "italic"


class SheetCanvas(Protocol):
    """What a renderer (PDF, PNG) provides to draw a page."""

    def width(self, text: str, size: float, style: TextStyle) -> float: ...

    def text(self, x: float, top: float, text: str, size: float, style: TextStyle, colour: Colour,
             align: str = "left") -> None: ...

    def rect(self, box: Rect, stroke: Colour | None, fill: Colour | None) -> None: ...

    def image(self, box: Rect, image: Image.Image) -> None:
        """``image`` scaled to fit inside ``box`` (aspect kept), centred."""


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class PanelBox:
    """Where one turn goes: its picture, and one or two text columns."""

    picture: Rect
    text: tuple[Rect, ...]


@dataclass(frozen=True)
class StoryboardLayout:
    panels: int
    """Panels per page: 1, 2 or 3."""
    aspect: float
    """Panel height / width."""

    @property
    def page(self) -> tuple[float, float]:
        return A4_PORTRAIT if self.panels == 3 else A4_LANDSCAPE

    @property
    def per_page(self) -> int:
        return self.panels

    def pages(self, turns: int) -> int:
        """The pages of ``turns`` panels: the sheet's pages when no turn's text needs a
        continuation panel (:func:`lay_out_sheet` counts them all)."""
        return max(1, -(-turns // self.panels))

    def content(self) -> Rect:
        width, height = self.page
        return Rect(MARGIN, MARGIN + HEADER, width - 2 * MARGIN, height - 2 * MARGIN - HEADER - FOOTER)

    def panel(self, slot: int) -> PanelBox:
        area = self.content()
        if self.panels == 1:
            pic_h = min(area.h * 0.72, area.w * self.aspect)
            pic_w = pic_h / self.aspect
            picture = Rect(area.x + (area.w - pic_w) / 2, area.y, pic_w, pic_h)
            top = picture.bottom + GUTTER * 0.7
            column = (area.w - GUTTER) / 2
            return PanelBox(picture, (Rect(area.x, top, column, area.bottom - top),
                                      Rect(area.x + column + GUTTER, top, column, area.bottom - top)))
        if self.panels == 2:
            column = (area.w - GUTTER) / 2
            x = area.x + slot * (column + GUTTER)
            pic_h = min(column * self.aspect, area.h * 0.62)
            pic_w = pic_h / self.aspect
            picture = Rect(x + (column - pic_w) / 2, area.y, pic_w, pic_h)
            top = picture.bottom + GUTTER * 0.6
            return PanelBox(picture, (Rect(x, top, column, area.bottom - top),))
        row_h = (area.h - GUTTER * (self.panels - 1)) / self.panels
        y = area.y + slot * (row_h + GUTTER)
        pic_w = min(area.w * 0.56, row_h / self.aspect)
        pic_h = pic_w * self.aspect
        picture = Rect(area.x, y, pic_w, min(pic_h, row_h))
        left = picture.right + GUTTER * 0.7
        return PanelBox(picture, (Rect(left, y, area.right - left, row_h),))

    def continuation(self, slot: int) -> tuple[Rect, ...]:
        """The text columns of a continuation panel in ``slot``: the whole of the slot, as it
        has no picture (two columns across a page of one panel or a row of three, one down a
        column of two)."""
        area = self.content()
        if self.panels == 1:
            column = (area.w - GUTTER) / 2
            return Rect(area.x, area.y, column, area.h), Rect(area.x + column + GUTTER, area.y, column, area.h)
        if self.panels == 2:
            column = (area.w - GUTTER) / 2
            return (Rect(area.x + slot * (column + GUTTER), area.y, column, area.h),)
        row_h = (area.h - GUTTER * (self.panels - 1)) / self.panels
        y = area.y + slot * (row_h + GUTTER)
        column = (area.w - GUTTER) / 2
        return Rect(area.x, y, column, row_h), Rect(area.x + column + GUTTER, y, column, row_h)


@dataclass(frozen=True)
class TextBlock:
    """A labelled piece of a panel's text ("QIQI" over her line, "ACTION" over the action)."""

    label: str
    text: str
    style: TextStyle = TextStyle.REGULAR
    colour: Colour = INK
    label_colour: Colour = MUTED
    speaker: bool = False
    """The label is a speaker's name over their line: it aligns with the line
    (:func:`label_line`)."""
    label_tail: str = ""
    """What follows ``label`` and stays whole when the label is too long for its line: the
    label is then cut ("AVERYLONGN… STATE", not "AVERYLONGNAME…", which no longer said what
    the block is)."""

    @property
    def full_label(self) -> str:
        return self.label + self.label_tail


def turn_heading(turn: Turn, character: str | None = None, continued: bool = False) -> str:
    """``Turn 3 · Qiqi · 3.5 s`` (``Turn 3 (continued) · Qiqi · 3.5 s`` over a continuation
    panel); ``character`` in place of the turn's own (a shortened name)."""
    parts = [f"Turn {turn.number} (continued)" if continued else f"Turn {turn.number}"]
    name = turn.character if character is None else character
    if name:
        parts.append(name)
    if turn.duration is not None:
        parts.append(f"{round(turn.duration, 3):g} s")  # 0.333 s, not 0.333333 s (a third at 30 fps)
    return " · ".join(parts)


def turn_as_cut(turn: Turn, fps: Fraction | None, clip_frames: int | None = None) -> Turn:
    """``turn`` with its duration as a video at ``fps`` gives it, in whole frames: a set one
    held or trimmed to whole frames (0.8 s at 8 fps is 0.75 s: the sheet showed the duration
    as set, and its reader timed the cut by a number the video does not have), else its
    clip's own length, ``clip_frames`` frames at ``fps`` (the sheet showed none, so a reader
    could not time those turns at all). A copy for the sheet to show: the turn's story keeps
    no duration it did not have. ``fps`` None (not known): the turn as it is; no
    ``clip_frames`` (its clip can't be read): no duration where none is set."""
    if fps is None:
        return turn
    if turn.duration is not None:
        seconds = cut_seconds(turn.duration, fps)
    elif clip_frames is not None:
        seconds = float(Fraction(clip_frames) / fps)
    else:
        return turn
    return replace(turn, story=replace(turn.story, duration=seconds))


def fit_around(name: str, compose: Callable[[str], str], measure: Callable[[str], float], width: float) -> str:
    """``compose(name)`` on one line of ``width``, ``name`` cut (with "…") first so that the
    rest of the line stays whole: cutting the whole line at its last word that fits left a long
    name out altogether, and what followed it ("Turn 1 ·…" for "Turn 1 · NAME · 3.5 s")."""
    whole = compose(name)
    if not name or measure(whole) <= width:
        return fit_line(whole, measure, width)
    room = width - measure(compose("\u2026")) + measure("\u2026")
    short = fit_line(name, measure, room) if room > 0 else ""
    return fit_line(compose(short or "\u2026"), measure, width)


def fitted_heading(turn: Turn, measure: Callable[[str], float], width: float, continued: bool = False) -> str:
    """The heading on one line of ``width``: the character's name is cut before the turn's
    number or duration."""
    return fit_around(turn.character, lambda name: turn_heading(turn, name, continued), measure, width)


def state_line(turn: Turn) -> str:
    """"Stamina 0 (-5) · Social 50 · Fun 55 (+5)": each value with how far the turn actually
    moved it (:attr:`Turn.change`; nothing beside a value the turn left as it was)."""
    values = []
    for name in STAT_NAMES:
        value, change = getattr(turn.state, name), getattr(turn.change, name)
        values.append(f"{STAT_LABELS[name]} {value}" + (f" ({change:+d})" if change else ""))
    return " · ".join(values)


NO_ACTION = "(the instruction names no character, motion or place)"
"""A sheet's ACTION for a turn whose sentence is empty (its fields all blank and no character
acting): never the instruction as written, field names and all."""


def turn_blocks(turn: Turn) -> tuple[list[TextBlock], list[TextBlock]]:
    """(what is heard: dialogue and narration; what is seen: action, notes, state)."""
    heard = [TextBlock((line.speaker or "Someone").upper(), line.text, label_colour=ACCENT, speaker=True)
             for line in turn.story.dialogue]
    if turn.story.narration:
        heard.append(TextBlock("NARRATION", turn.story.narration, TextStyle.ITALIC))
    seen = [TextBlock("ACTION", turn.action or NO_ACTION)]
    if turn.story.shot_notes:
        seen.append(TextBlock("SHOT NOTES", turn.story.shot_notes))
    seen.append(TextBlock(turn.character.upper(), state_line(turn), colour=MUTED,
                          label_tail=" STATE" if turn.character else "STATE"))
    return heard, seen


@dataclass(frozen=True)
class PlacedLine:
    x: float
    top: float
    text: str
    size: float
    style: TextStyle
    colour: Colour
    align: str = "left"
    """"right": ``x`` is the line's right end (a right-to-left line, :func:`placed_line`)."""


def placed_line(box: Rect, top: float, text: str, size: float, style: TextStyle, colour: Colour) -> PlacedLine:
    """A line of text in ``box``: from its left edge, or from its right edge when the line
    reads right to left (Arabic, Hebrew), as a reader of that script expects. A wrapped line
    reads in its paragraph's direction (:func:`~studio.export.drawing.wrap_text` marks a line
    whose own first letter says otherwise), so all lines of a paragraph align alike."""
    if starts_right_to_left(text):
        return PlacedLine(box.right, top, text, size, style, colour, "right")
    return PlacedLine(box.x, top, text, size, style, colour)


def label_line(box: Rect, top: float, label: str, under: tuple[str, ...], size: float, colour: Colour,
               speaker: bool = False) -> PlacedLine:
    """A block's label in ``box``, over ``under`` (the block's first line there, if any).

    A speaker's name (``speaker``) says whose line it is, so it begins at the edge where that
    line begins, whatever the name's own script: "AOI" over a line in Arabic is at the right,
    with the line; an Arabic name over a line in English is at the left. The sheet's section
    labels ("NARRATION", "ACTION") stay at the left edge, as on the rest of the sheet."""
    if speaker and under and starts_right_to_left(under[0]):
        return PlacedLine(box.right, top, label, size, TextStyle.BOLD, colour, "right")
    return PlacedLine(box.x, top, label, size, TextStyle.BOLD, colour)


Measure = Callable[[str, float, TextStyle], float]
LINE = 1.28
LABEL_SCALE = 0.78
BLOCK_GAP = 0.55
"""Space after a block, in text sizes."""
_EPSILON = 1e-6
KEEP_TOGETHER = 3
"""Lines of a block that are never split between columns or panels, unless it starts a box."""


def measuring(measure: Measure, size: float, style: TextStyle) -> Callable[[str], float]:
    """``measure`` at one size and style, as the wrapping functions take it."""
    return lambda text: measure(text, size, style)


@dataclass(frozen=True)
class _Piece:
    """A block wrapped at one size and width: its label as shown (none when empty) and its lines."""

    block: TextBlock
    label: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class _Flowed:
    lines: list[PlacedLine]
    rest: list[_Piece]
    """What had no room, in order: the first piece's lines still to place (its label shown
    already when ``split``), then the later pieces whole."""
    split: bool
    """Whether the first piece of ``rest`` was begun in these boxes."""
    top: float
    """Where the next line would go in the last box it reached."""


def _flow(pieces: list[_Piece], boxes: list[Rect], size: float, whole: bool) -> _Flowed:
    """``pieces`` placed one after the other down ``boxes``, a box's overflow going on at the
    top of the next. A block's label goes only where its first line fits under it. With
    ``whole`` a block is never split between boxes (it starts in the next box instead); nor,
    without it, is a block of :data:`KEEP_TOGETHER` lines or fewer that a box has begun with
    others (a dialogue line's last word alone atop the next column read as a stray line)."""
    label_size = size * LABEL_SCALE
    label_h, line_h = label_size * LINE, size * LINE
    placed: list[PlacedLine] = []
    column, top = 0, boxes[0].y
    for index, piece in enumerate(pieces):
        block, lines = piece.block, piece.lines
        head = label_h if piece.label else 0.0
        done, started = 0, False
        while True:
            box = boxes[column]
            if not started and (whole or (len(lines) <= KEEP_TOGETHER and top > box.y + _EPSILON)):
                need = head + line_h * len(lines)
            else:
                need = (0.0 if started else head) + (line_h if done < len(lines) else 0.0)
            if top + need > box.bottom + _EPSILON:
                if column + 1 == len(boxes):
                    if not started:
                        return _Flowed(placed, pieces[index:], False, top)
                    left = _Piece(block, piece.label, lines[done:])
                    return _Flowed(placed, [left, *pieces[index + 1:]], True, top)
                column += 1
                top = boxes[column].y
                continue
            if not started:
                started = True
                if piece.label:
                    placed.append(label_line(box, top, piece.label, piece.lines[:1], label_size,
                                             block.label_colour, block.speaker))
                    top += label_h
            while done < len(lines) and top + line_h <= box.bottom + _EPSILON:
                placed.append(placed_line(box, top, lines[done], size, block.style, block.colour))
                top += line_h
                done += 1
            if done == len(lines):
                break
        top += size * BLOCK_GAP
    return _Flowed(placed, [], False, top)


def _wrap(block: TextBlock, size: float, measure: Measure, width: float, max_lines: int = 0,
          tail: str = "") -> _Piece:
    """``block`` wrapped to ``width`` (with ``max_lines``, only that far: see :func:`wrap_text`)."""
    lines = wrap_text(block.text, measuring(measure, size, block.style), width, max_lines=max_lines)
    return _Piece(block, _label(block, size, measure, width, tail), tuple(lines))


def _label(block: TextBlock, size: float, measure: Measure, width: float, tail: str = "") -> str:
    """``block``'s label on one line of ``width``, ``tail`` after it ("QIQI (continued)")."""
    return fit_around(block.label, lambda name: name + block.label_tail + tail,
                      measuring(measure, size * LABEL_SCALE, TextStyle.BOLD), width)


@dataclass(frozen=True)
class _Panel:
    """The turn's text at one size: the heading and the boxes the blocks go in."""

    heading: PlacedLine
    boxes: list[Rect]
    width: float


def _panel(columns: tuple[Rect, ...], turn: Turn, size: float, measure: Measure, continued: bool = False) -> _Panel:
    """The heading over all of ``columns`` and the boxes under it (every column of two, as the
    heading spans both; the first of one)."""
    head_size = size * 1.15
    head_h = head_size * LINE + size * 0.3
    heading = fitted_heading(turn, measuring(measure, head_size, TextStyle.BOLD), columns[-1].right - columns[0].x,
                             continued)
    boxes = [Rect(box.x, box.y + head_h, box.w, box.h - head_h) if index == 0 or len(columns) == 2 else box
             for index, box in enumerate(columns)]
    return _Panel(PlacedLine(columns[0].x, columns[0].y, heading, head_size, TextStyle.BOLD, INK), boxes,
                  min(box.w for box in columns))


@dataclass(frozen=True)
class PanelText:
    """A panel's lines at one text size, and what it had no room for (``rest``): that goes on
    in a continuation panel (:func:`continue_panel_text`)."""

    lines: list[PlacedLine]
    size: float
    rest: list[_Piece]


NEXT_PANEL = "continued in the next panel"


def set_panel_text(columns: tuple[Rect, ...], turn: Turn, measure: Measure) -> tuple[list[PlacedLine], float]:
    """The lines :func:`set_turn_text` places in ``columns`` and their size (what a panel
    shows; the text it has no room for goes on in a continuation panel)."""
    text = set_turn_text(columns, turn, measure)
    return text.lines, text.size


def set_turn_text(columns: tuple[Rect, ...], turn: Turn, measure: Measure, more: str = NEXT_PANEL) -> PanelText:
    """Every line of the turn's text placed in ``columns`` at the largest size that fits
    them all (one size for the whole panel), down to :data:`MIN_TEXT_SIZE`.

    With two columns the dialogue and narration go in the first, the action, shot notes and
    state in the second. At the smallest size what still has no room flows, in order, from
    the first column on into the next, a block split between them where needed. What even
    that leaves over is never dropped: the panel then shows what is seen (the action, shot
    notes and state, beside its picture) before what is heard, ends with a line saying where
    the text goes on (``more``: "continued on page 4"), and returns the rest for a
    continuation panel."""
    heard, seen = turn_blocks(turn)
    size = MAX_TEXT_SIZE
    while True:
        lines = _grouped(columns, turn, heard, seen, size, measure)
        if lines is not None:
            return PanelText(lines, size, [])
        if size <= MIN_TEXT_SIZE:
            break
        size = max(MIN_TEXT_SIZE, size - 0.5)
    panel = _panel(columns, turn, size, measure)
    pieces = [_wrap(block, size, measure, panel.width) for block in (*heard, *seen)]
    flowed = _flow(pieces, panel.boxes, size, whole=False)
    if not flowed.rest:
        return PanelText([panel.heading, *flowed.lines], size, [])
    seen_first = [*pieces[len(heard):], *pieces[:len(heard)]]  # the picture's own text stays beside it
    return _continuing(panel, seen_first, size, measure, more)


def continue_panel_text(columns: tuple[Rect, ...], turn: Turn, rest: list[_Piece], size: float, measure: Measure,
                        more: str = NEXT_PANEL) -> PanelText:
    """``rest`` (what the turn's previous panel had no room for) in a continuation panel of
    ``columns``, headed "Turn 3 (continued)", at the previous panel's ``size``; what it
    still has no room for is returned again."""
    panel = _panel(columns, turn, size, measure, continued=True)
    return _continuing(panel, rest, size, measure, more)


def _continuing(panel: _Panel, pieces: list[_Piece], size: float, measure: Measure, more: str) -> PanelText:
    """``pieces`` down ``panel``'s boxes; when they don't all fit, the last line of the last
    box says where they go on (``more``), and a block split there shows its label again
    there, "(continued)" after it."""
    flowed = _flow(pieces, panel.boxes, size, whole=False)
    if not flowed.rest:
        return PanelText([panel.heading, *flowed.lines], size, [])
    last = panel.boxes[-1]
    boxes = [*panel.boxes[:-1], Rect(last.x, last.y, last.w, last.h - size * LINE)]  # a line kept for the note
    flowed = _flow(pieces, boxes, size, whole=False)
    note = fit_line(f"{more} →", measuring(measure, size, TextStyle.ITALIC), last.w)
    rest = flowed.rest
    if flowed.split:
        first = rest[0]
        label = _label(first.block, size, measure, panel.width, " (continued)") if first.label else ""
        rest = [_Piece(first.block, label, first.lines), *rest[1:]]
    lines = [panel.heading, *flowed.lines,
             PlacedLine(last.x, min(flowed.top, boxes[-1].bottom), note, size, TextStyle.ITALIC, MUTED)]
    return PanelText(lines, size, rest)


def _grouped(columns: tuple[Rect, ...], turn: Turn, heard: list[TextBlock], seen: list[TextBlock], size: float,
             measure: Measure) -> list[PlacedLine] | None:
    """The panel's lines at ``size``, each column holding its own blocks whole (two columns:
    what is heard, then what is seen), or None when they don't all fit."""
    panel = _panel(columns, turn, size, measure)
    groups = ([heard, seen] if heard else [seen[:1], seen[1:]]) if len(columns) == 2 else [[*heard, *seen]]
    label_h, line_h = size * LABEL_SCALE * LINE, size * LINE
    lines = [panel.heading]
    for box, blocks in zip(panel.boxes, groups, strict=True):
        pieces, used = [], 0.0
        for block in blocks:  # each wrapped only as far as the room left (a line to spare): a long
            room = int((box.h - used - (label_h if block.full_label else 0.0)) // line_h)  # text costs no more
            if room < -1:
                return None
            piece = _wrap(block, size, measure, panel.width, max_lines=room + 2)
            if len(piece.lines) >= room + 2:
                return None
            pieces.append(piece)
            used += (label_h if piece.label else 0.0) + line_h * len(piece.lines) + size * BLOCK_GAP
        flowed = _flow(pieces, [box], size, whole=True)
        if flowed.rest:
            return None
        lines.extend(flowed.lines)
    return lines


@dataclass(frozen=True)
class SheetPanel:
    """One panel of a sheet page: a turn's picture and text, or (``continued``) the text its
    panel before had no room for, with no picture."""

    turn: Turn
    slot: int
    """Its place on its page (0 for the first)."""
    lines: tuple[PlacedLine, ...]
    continued: bool = False


def lay_out_sheet(layout: StoryboardLayout, turns: list[Turn], measure: Measure) -> list[list[SheetPanel]]:
    """The sheet's pages, each a list of its panels: every turn in a panel of its own, in
    order, and the text a panel has no room for in the panels right after it (the next
    slot, on this page or the next, see :meth:`StoryboardLayout.continuation`), so that
    nothing of a turn's text is left out. There is always at least one page."""
    panels: list[SheetPanel] = []
    per_page = layout.per_page

    def where(slot: int) -> str:  # where the panel after the one in ``slot`` is
        return NEXT_PANEL if (slot + 1) % per_page else f"continued on page {(slot + 1) // per_page + 1}"

    for turn in turns:
        slot = len(panels)
        text = set_turn_text(layout.panel(slot % per_page).text, turn, measure, where(slot))
        panels.append(SheetPanel(turn, slot % per_page, tuple(text.lines)))
        while text.rest:
            slot = len(panels)
            before = sum(len(piece.lines) for piece in text.rest)
            text = continue_panel_text(layout.continuation(slot % per_page), turn, text.rest, text.size, measure,
                                       where(slot))
            if text.rest and sum(len(piece.lines) for piece in text.rest) >= before:  # pragma: no cover
                raise RuntimeError(f"a continuation panel of turn {turn.number} holds none of its text")
            panels.append(SheetPanel(turn, slot % per_page, tuple(text.lines), continued=True))
    return [panels[start:start + per_page] for start in range(0, len(panels), per_page)] or [[]]


def page_label(page: int, pages: int) -> str:
    return f"Page {page} of {pages}"


def sheet_title(branch: Branch, title: str) -> str:
    return title.strip() or branch.project_name


def branch_title(branch: Branch) -> str:
    """The branch as a reader knows it: where it ends."""
    last = branch.turns[-1]
    return f"Branch to turn {last.number}: {last.action}" if last.action else f"Branch to turn {last.number}"


def draw_page(canvas: SheetCanvas, layout: StoryboardLayout, branch: Branch, title: str, page: int, pages: int,
              panels: list[SheetPanel], pictures: list[Image.Image | None]) -> None:
    """Page ``page`` of ``pages``: the heading, the footer and ``panels`` (see
    :func:`lay_out_sheet`), each turn's panel with its picture (``pictures``, one a panel;
    None for a continuation panel, which has none)."""
    width, height = layout.page

    def fit(text: str, size: float, style: TextStyle, room: float) -> str:
        return fit_line(text, lambda t: canvas.width(t, size, style), room)

    heading = placed_line(Rect(MARGIN, MARGIN, width - 2 * MARGIN, TITLE_SIZE), MARGIN,
                          fit(title, TITLE_SIZE, TextStyle.BOLD, width - 2 * MARGIN), TITLE_SIZE, TextStyle.BOLD, INK)
    canvas.text(heading.x, heading.top, heading.text, heading.size, heading.style, heading.colour, align=heading.align)
    subtitle = fit(f"{branch_title(branch)} · {plural(len(branch.turns), 'turn')}", SMALL_SIZE + 1,
                   TextStyle.REGULAR, width - 2 * MARGIN)
    canvas.text(MARGIN, MARGIN + TITLE_SIZE * 1.4, subtitle, SMALL_SIZE + 1, TextStyle.REGULAR, MUTED)
    footer_top = height - MARGIN - SMALL_SIZE
    label = page_label(page, pages)
    label_w = canvas.width(label, SMALL_SIZE, TextStyle.REGULAR)
    canvas.text(MARGIN, footer_top, fit(branch.project_name, SMALL_SIZE, TextStyle.REGULAR,
                                        width - 2 * MARGIN - label_w - 3 * SMALL_SIZE),
                SMALL_SIZE, TextStyle.REGULAR, MUTED)
    canvas.text(width - MARGIN, footer_top, label, SMALL_SIZE, TextStyle.REGULAR, MUTED, align="right")
    for panel, picture in zip(panels, pictures, strict=True):
        if not panel.continued and picture is not None:
            box = layout.panel(panel.slot)
            canvas.rect(box.picture, None, PANEL_BACK)
            canvas.image(box.picture, picture)
            canvas.rect(box.picture, INK, None)
        for line in panel.lines:
            canvas.text(line.x, line.top, line.text, line.size, line.style, line.colour, align=line.align)
