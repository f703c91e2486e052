"""The storyboard sheet, in the manner of Storyboarder's: large panels with their full
text (dialogue, narration, action, shot notes), 1, 2 or 3 panels per page, the branch's
title, page numbers.

Layouts: 1 per page (landscape: a large panel, its text in two columns below), 2 per
page (landscape: two columns, text below each panel) and 3 per page (portrait: three
rows, text beside each panel, as a shooting script). Panels are 16:9 or the clip's own
shape. Text is never cut: the font shrinks (down to :data:`MIN_TEXT_SIZE`) until all of
a panel's text fits; only beyond that is the last line ellipsed.

Everything is measured in points from the page's top-left corner and drawn through a
:class:`SheetCanvas`, so the PDF and the PNG renderers draw the same page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from PIL import Image

from studio.core.sentence import plural
from studio.core.state import STAT_NAMES
from studio.export.branch import Branch, Turn
from studio.export.drawing import STAT_LABELS, fit_line, wrap_text

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


@dataclass(frozen=True)
class TextBlock:
    """A labelled piece of a panel's text ("QIQI" over her line, "ACTION" over the action)."""

    label: str
    text: str
    style: TextStyle = TextStyle.REGULAR
    colour: Colour = INK
    label_colour: Colour = MUTED


def turn_heading(turn: Turn) -> str:
    parts = [f"Turn {turn.number}"]
    if turn.character:
        parts.append(turn.character)
    if turn.duration is not None:
        parts.append(f"{turn.duration:g} s")
    return " · ".join(parts)


def state_line(turn: Turn) -> str:
    values = []
    for name in STAT_NAMES:
        value, change = getattr(turn.state, name), 5 * getattr(turn.deltas, name)
        values.append(f"{STAT_LABELS[name]} {value}" + (f" ({change:+d})" if change else ""))
    return " · ".join(values)


def turn_blocks(turn: Turn) -> tuple[list[TextBlock], list[TextBlock]]:
    """(what is heard: dialogue and narration; what is seen: action, notes, state)."""
    heard = [TextBlock((line.speaker or "Someone").upper(), line.text, label_colour=ACCENT)
             for line in turn.story.dialogue]
    if turn.story.narration:
        heard.append(TextBlock("NARRATION", turn.story.narration, TextStyle.ITALIC))
    seen = [TextBlock("ACTION", turn.action or turn.instruction or "(no instruction)")]
    if turn.story.shot_notes:
        seen.append(TextBlock("SHOT NOTES", turn.story.shot_notes))
    seen.append(TextBlock(f"{turn.character.upper()} STATE" if turn.character else "STATE", state_line(turn),
                          colour=MUTED))
    return heard, seen


@dataclass(frozen=True)
class PlacedLine:
    x: float
    top: float
    text: str
    size: float
    style: TextStyle
    colour: Colour


Measure = Callable[[str, float, TextStyle], float]
LINE = 1.28
LABEL_SCALE = 0.78


def measuring(measure: Measure, size: float, style: TextStyle) -> Callable[[str], float]:
    """``measure`` at one size and style, as the wrapping functions take it."""
    return lambda text: measure(text, size, style)


def _set_column(blocks: list[TextBlock], box: Rect, size: float, measure: Measure,
                limit: bool) -> tuple[list[PlacedLine], int, float]:
    """Lines of ``blocks`` in ``box`` at ``size``, how many of the blocks were placed (whole
    ones, up to the first that does not fit) and where the next line would go. With
    ``limit`` a last block that does not fit is cut where the box ends (its last line
    ellipsed) and counts as placed."""
    placed: list[PlacedLine] = []
    top = box.y
    for count, block in enumerate(blocks):
        label_size = size * LABEL_SCALE
        if top + label_size * LINE > box.bottom:
            return placed, count, top
        style = block.style

        def width(text: str, style: TextStyle = style) -> float:
            return measure(text, size, style)

        room = int((box.bottom - top - label_size * LINE) // (size * LINE))
        lines = wrap_text(block.text, width, box.w)
        if len(lines) > room:
            if not limit or room <= 0 or count < len(blocks) - 1:
                return placed, count, top
            lines = wrap_text(block.text, width, box.w, max_lines=room)
        label = fit_line(block.label, measuring(measure, label_size, TextStyle.BOLD), box.w)
        placed.append(PlacedLine(box.x, top, label, label_size, TextStyle.BOLD, block.label_colour))
        top += label_size * LINE
        for line in lines:
            placed.append(PlacedLine(box.x, top, line, size, block.style, block.colour))
            top += size * LINE
        top += size * 0.55
    return placed, len(blocks), top


def set_panel_text(columns: tuple[Rect, ...], turn: Turn, measure: Measure) -> tuple[list[PlacedLine], float]:
    """Every line of the turn's text placed in ``columns`` at the largest size that fits
    them all (one size for the whole panel); returns the lines and that size. At the smallest
    size, what the first column has no room for flows on into the next. Only then is text left
    out, dialogue lines first (from the last, with a line saying how many), so that the
    narration, the action, the shot notes and the state stay; if even they don't fit, a last
    line says how many blocks were left out."""
    heard, seen = turn_blocks(turn)
    size = MAX_TEXT_SIZE
    while size > MIN_TEXT_SIZE:
        lines, left_out = _panel_lines(columns, turn, heard, seen, size, measure, flow=False)
        if not left_out:
            return lines, size
        size = max(MIN_TEXT_SIZE, size - 0.5)
    lines, left_out = _panel_lines(columns, turn, heard, seen, size, measure, flow=True)
    spoken = len(turn.story.dialogue)
    for keep in range(spoken - 1, -1, -1) if left_out else ():
        note = TextBlock("", f"\u2026 +{plural(spoken - keep, 'more dialogue line')}", TextStyle.ITALIC, MUTED)
        trimmed = [*heard[:keep], note, *heard[spoken:]]  # the narration, after the dialogue, stays
        fewer, missing = _panel_lines(columns, turn, trimmed, seen, size, measure, flow=True)
        if not missing:
            return fewer, size
    return lines, size


def _panel_lines(columns: tuple[Rect, ...], turn: Turn, heard: list[TextBlock], seen: list[TextBlock], size: float,
                 measure: Measure, flow: bool) -> tuple[list[PlacedLine], int]:
    """The panel's lines at ``size`` and how many blocks had no room. With ``flow`` (the
    smallest size) a column's overflow goes on in the next, and what the last has no room for
    is cut, with a note of how many blocks that left out."""
    heading = TextBlock("", turn_heading(turn), TextStyle.BOLD)
    two = [[*heard], [*seen]] if heard else [[*seen[:1]], [*seen[1:]]]
    groups = two if len(columns) == 2 else [[*heard, *seen]]
    head_h = size * 1.15 * LINE
    head_w = columns[-1].right - columns[0].x
    shown = fit_line(heading.text, measuring(measure, size * 1.15, TextStyle.BOLD), head_w)
    lines = [PlacedLine(columns[0].x, columns[0].y, shown, size * 1.15, TextStyle.BOLD, INK)]
    carried: list[TextBlock] = []
    left_out = 0
    for index, (box, blocks) in enumerate(zip(columns, groups, strict=True)):
        shifted = Rect(box.x, box.y + head_h + size * 0.3, box.w, box.h - head_h - size * 0.3) \
            if index == 0 or len(columns) == 2 else box
        final = index == len(columns) - 1
        pending = [*carried, *blocks] if flow else blocks
        placed, count, top = _set_column(pending, shifted, size, measure, limit=flow and final)
        if flow and final and count < len(pending):  # again, keeping a line for the note
            shorter = Rect(shifted.x, shifted.y, shifted.w, shifted.h - size * LINE)
            placed, count, top = _set_column(pending, shorter, size, measure, limit=True)
        lines.extend(placed)
        carried = pending[count:] if flow else []
        left_out += 0 if flow else len(pending) - count
        if flow and final and carried:
            left_out = len(carried)
            note = f"\u2026 +{len(carried)} more line{'s' if len(carried) != 1 else ''}"
            lines.append(PlacedLine(shifted.x, top, note, size, TextStyle.ITALIC, MUTED))
    return lines, left_out


def page_label(page: int, pages: int) -> str:
    return f"Page {page} of {pages}"


def sheet_title(branch: Branch, title: str) -> str:
    return title.strip() or branch.project_name


def branch_title(branch: Branch) -> str:
    """The branch as a reader knows it: where it ends."""
    last = branch.turns[-1]
    ending = last.action or last.instruction
    return f"Branch to turn {last.number}: {ending}" if ending else f"Branch to node {branch.leaf_id}"


def draw_page(canvas: SheetCanvas, layout: StoryboardLayout, branch: Branch, title: str, page: int, pages: int,
              turns: list[Turn], pictures: list[Image.Image]) -> None:
    width, height = layout.page

    def fit(text: str, size: float, style: TextStyle, room: float) -> str:
        return fit_line(text, lambda t: canvas.width(t, size, style), room)

    canvas.text(MARGIN, MARGIN, fit(title, TITLE_SIZE, TextStyle.BOLD, width - 2 * MARGIN), TITLE_SIZE,
                TextStyle.BOLD, INK)
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
    for slot, (turn, picture) in enumerate(zip(turns, pictures, strict=True)):
        box = layout.panel(slot)
        canvas.rect(box.picture, None, PANEL_BACK)
        canvas.image(box.picture, picture)
        canvas.rect(box.picture, INK, None)
        lines, _size = set_panel_text(box.text, turn, canvas.width)
        for line in lines:
            canvas.text(line.x, line.top, line.text, line.size, line.style, line.colour)
