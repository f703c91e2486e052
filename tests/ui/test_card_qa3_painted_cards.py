"""What a card paints, read back from its pixels (at a device pixel ratio of 2, as on a high-DPI
screen). QA found: the progress figure of a re-roll vanished over a bright picture in the dark
scheme and over a dark one in the light scheme; a failed turn's "!" was drawn across the poster
box's "not generated yet"; a Hebrew or Arabic title or excerpt started at the card's left edge."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from studio.core.state import CharacterState
from studio.ui import palette
from studio.ui.canvas.card_item import CardItem
from studio.ui.canvas.geometry import CARD_H, CARD_W, MARGIN, POSTER
from studio.ui.node_summary import CardStatus, NodeSummary, PosterState
from tests.ui.contrast import contrast

DPR = 2.0
OFFSET = 4.0  # the card's bounding rect starts 4 units above and left of its corner


class StubScene:
    """What a card asks its scene for: a poster of one colour (or none)."""

    def __init__(self, poster_color: str = "") -> None:
        self.image: QImage | None = None
        if poster_color:
            self.image = QImage(160, 112, QImage.Format.Format_RGB32)
            self.image.fill(QColor(poster_color))

    def poster(self, rel: str) -> QImage | None:
        return self.image

    def poster_state(self, rel: str) -> PosterState:
        return PosterState.NONE

    def clip_frames(self, rel: str) -> None:
        return None


@pytest.fixture
def scheme(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """Painting needs the application; the test may switch the colour scheme: put it back."""
    yield
    palette.use_scheme("dark")


def _summary(**changes: object) -> NodeSummary:
    fields: dict[str, object] = dict(
        node_id="turn", title="Qiqi · town", excerpt="gently sit on railing", state=CharacterState(),
        motion_level=2, status=CardStatus.DONE, bookmarked=False, poster_path="", clip_path="", take_count=1)
    fields.update(changes)
    return NodeSummary(**fields)  # type: ignore[arg-type]


def _render(summary: NodeSummary, poster_color: str = "", scale: float = 1.0) -> QImage:
    size = (CARD_W + 2 * OFFSET) * scale * DPR, (CARD_H + 2 * OFFSET) * scale * DPR
    image = QImage(round(size[0]), round(size[1]), QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(DPR)
    image.fill(palette.BACKGROUND)
    painter = QPainter(image)
    painter.scale(scale, scale)
    painter.translate(OFFSET, OFFSET)
    CardItem(summary, StubScene(poster_color)).paint(painter, QStyleOptionGraphicsItem())  # type: ignore[arg-type]
    painter.end()
    return image


def _pixels(image: QImage, area: QRectF, scale: float = 1.0) -> Iterator[tuple[float, float, QColor]]:
    """(x, y, colour) of the image's pixels in ``area`` (card units); x and y in card units too."""
    unit = scale * DPR
    left, top = round((area.left() + OFFSET) * unit), round((area.top() + OFFSET) * unit)
    right, bottom = round((area.right() + OFFSET) * unit), round((area.bottom() + OFFSET) * unit)
    for y in range(top, bottom):
        for x in range(left, right):
            yield x / unit - OFFSET, y / unit - OFFSET, image.pixelColor(x, y)


@pytest.mark.parametrize(("scheme_name", "poster"), [("dark", "#f0f0f0"), ("light", "#101010"),
                                                     ("dark", "#101010"), ("light", "#f0f0f0")])
def test_the_progress_figure_reads_over_any_picture(scheme: None, scheme_name: str, poster: str) -> None:
    palette.use_scheme(scheme_name)
    image = _render(_summary(status=CardStatus.RUNNING, fraction=0.6, poster_path="poster.png"), poster)
    center = POSTER.center()
    inside = [color for _, _, color in _pixels(image, QRectF(center - QPointF(14, 8), center + QPointF(14, 8)))]
    background = Counter(color.rgb() for color in inside).most_common(1)[0][0]
    best = max(contrast(QColor.fromRgb(background), color) for color in inside)
    assert best >= 4.5


@pytest.mark.parametrize("scheme_name", ["dark", "light"])
def test_a_failed_mark_and_the_poster_label_do_not_overlap(scheme: None, scheme_name: str) -> None:
    palette.use_scheme(scheme_name)
    image = _render(_summary(status=CardStatus.FAILED, take_count=0, motion_level=None))
    below_pill = QRectF(POSTER.left(), POSTER.top() + 26, POSTER.width(), POSTER.height() - 26)
    mark_rows, label_rows = set(), set()
    label = palette.TEXT_DIM
    for _, y, color in _pixels(image, below_pill):
        if color.red() > 200 and color.green() < 130 and color.blue() < 130:
            mark_rows.add(y)
        elif max(abs(color.red() - label.red()), abs(color.green() - label.green()),
                 abs(color.blue() - label.blue())) < 24:
            label_rows.add(y)
    assert mark_rows and label_rows
    assert max(mark_rows) < min(label_rows)


def _ink_columns(image: QImage, band: QRectF, ink: QColor, scale: float = 1.0) -> list[float]:
    """The x (card units) of the pixels in ``band`` close to the text colour ``ink``."""
    return [x for x, _, color in _pixels(image, band, scale) if contrast(color, ink) < 1.6]


ARABIC_TITLE = "قيقي · المدينة"
HEBREW_EXCERPT = "יושבת על המעקה"
TITLE_BAND = QRectF(0, POSTER.bottom() + 2, CARD_W, 18)
EXCERPT_BAND = QRectF(0, POSTER.bottom() + 19, CARD_W, 15)


@pytest.mark.parametrize("scheme_name", ["dark", "light"])
def test_right_to_left_lines_start_at_the_right(scheme: None, scheme_name: str) -> None:
    palette.use_scheme(scheme_name)
    image = _render(_summary(title=ARABIC_TITLE, excerpt=HEBREW_EXCERPT))
    for band, ink in ((TITLE_BAND, palette.TEXT), (EXCERPT_BAND, palette.TEXT_DIM)):
        columns = _ink_columns(image, band, ink)
        assert columns
        assert max(columns) > CARD_W - MARGIN - 4  # starts at the right margin
        assert min(columns) > MARGIN + 40  # the free space is on the left


def test_left_to_right_lines_still_start_at_the_left(scheme: None) -> None:
    image = _render(_summary(title="Qiqi · town", excerpt="sits down"))
    for band, ink in ((TITLE_BAND, palette.TEXT), (EXCERPT_BAND, palette.TEXT_DIM)):
        columns = _ink_columns(image, band, ink)
        assert columns and min(columns) < MARGIN + 4 and max(columns) < CARD_W - MARGIN - 40


def test_a_zoomed_out_right_to_left_title_starts_at_the_right(scheme: None) -> None:
    scale = 0.5
    title_h = 12 / scale * 1.25  # the zoomed-out title is drawn about 12 px high on screen
    bars_top = CARD_H - MARGIN - 22
    band = QRectF(0, bars_top - MARGIN - title_h, CARD_W, title_h)
    columns = _ink_columns(_render(_summary(title="قيقي"), scale=scale), band, palette.TEXT, scale)
    assert columns and max(columns) > CARD_W - MARGIN - 6 and min(columns) > CARD_W / 2
