"""Visual QA round 5: a failed card's "!" on its empty poster read at 2.3:1 in the light
scheme (the failed status's pale red on a pale grey box; seen on a 1280x720 screenshot of a
project with a failed turn). The mark is drawn in a deeper red there, 3:1 or more (it is
large bold text), and the "not generated yet" under it keeps 4.5:1, in both schemes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from studio.core.state import CharacterState
from studio.ui import palette
from studio.ui.canvas.card_item import _FAILED_LABEL_AREA, _FAILED_MARK_AREA, CardItem
from studio.ui.canvas.geometry import CARD_H, CARD_W, POSTER
from studio.ui.node_summary import CardStatus, NodeSummary, PosterState
from tests.ui.contrast import contrast

DPR = 2.0
OFFSET = 4.0


class StubScene:
    def poster(self, rel: str) -> None:
        return None

    def poster_state(self, rel: str) -> PosterState:
        return PosterState.NONE

    def clip_frames(self, rel: str) -> None:
        return None


@pytest.fixture(params=["light", "dark"])
def scheme(request, qapp) -> Iterator[str]:  # type: ignore[no-untyped-def]
    palette.use_scheme(request.param)
    yield request.param
    palette.use_scheme("dark")


def _render() -> QImage:
    summary = NodeSummary(node_id="turn", title="Yuzu · library", excerpt="fall", state=CharacterState(),
                          motion_level=None, status=CardStatus.FAILED, bookmarked=False, poster_path="",
                          clip_path="", take_count=1, error="the engine ran out of memory", hint="Try 32 frames.")
    image = QImage(round((CARD_W + 2 * OFFSET) * DPR), round((CARD_H + 2 * OFFSET) * DPR), QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(DPR)
    image.fill(palette.BACKGROUND)
    painter = QPainter(image)
    painter.translate(OFFSET, OFFSET)
    CardItem(summary, StubScene()).paint(painter, QStyleOptionGraphicsItem())  # type: ignore[arg-type]
    painter.end()
    return image


def _strongest(image: QImage, area: QRectF, against: QColor) -> float:
    """The highest contrast of a pixel in ``area`` (card units) against ``against``: the ink's."""
    best = 1.0
    for x in range(int((area.left() + OFFSET) * DPR), int((area.right() + OFFSET) * DPR)):
        for y in range(int((area.top() + OFFSET) * DPR), int((area.bottom() + OFFSET) * DPR)):
            best = max(best, contrast(image.pixelColor(x, y), against))
    return best


def test_the_failed_mark_and_its_label_read_on_the_empty_poster(scheme: str) -> None:
    image = _render()
    # the poster box's own colour, beside the mark (its gradient is palest at the top)
    box = image.pixelColor(int((POSTER.left() + 3 + OFFSET) * DPR), int((POSTER.top() + 30 + OFFSET) * DPR))
    assert contrast(box, palette.POSTER_EMPTY) < 1.2, box.name()
    middle = _FAILED_MARK_AREA.center().x()  # the "!" alone: the status pill is at the top right
    mark = _strongest(image, QRectF(middle - 12, POSTER.top() + 24, 24, _FAILED_MARK_AREA.bottom() - POSTER.top() - 24),
                      box)
    assert mark >= 3.0, (scheme, round(mark, 2))
    label = _strongest(image, _FAILED_LABEL_AREA.adjusted(20, 0, -20, 0), box)
    assert label >= 4.5, (scheme, round(label, 2))
