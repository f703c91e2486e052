"""The filmstrip's status marks ("stale", "queued", "generating 40%") read in both schemes,
over a light picture and a dark one (QA: in the light scheme they were the scheme's dark text
on a dark pill). Measured on the mark as painted: the pill's colour against its text's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFontMetrics, QImage, QPainter

from studio.ui import palette
from studio.ui.episode.filmstrip import MARK_H, THUMB_H, THUMB_W, Filmstrip
from studio.ui.media_cache import PosterCache
from tests.ui.contrast import contrast


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("picture", ["#ffffff", "#000000", "#87ceeb"])
@pytest.mark.parametrize("word", ["stale", "queued"])
def test_a_mark_reads_at_4_5_to_1(qtbot, scheme: str, picture: str, word: str) -> None:  # type: ignore[no-untyped-def]
    palette.use_scheme(scheme)
    try:
        strip = Filmstrip(PosterCache(), lambda rel: rel)
        qtbot.addWidget(strip)
        image = QImage(int(THUMB_W) + 8, int(THUMB_H) + 8, QImage.Format.Format_ARGB32)
        image.fill(QColor(picture))
        thumb = QRectF(4, 4, THUMB_W, THUMB_H)
        painter = QPainter(image)
        painter.setFont(strip.font())
        strip._paint_mark(painter, thumb, word)
        painter.end()

        # the pill's own colour, beside its text; its text: the pixels between its round ends
        width = QFontMetrics(strip.font()).horizontalAdvance(word) + 10
        left, right = thumb.right() - 2 - width, thumb.right() - 2
        top = thumb.top() + 2
        fill = image.pixelColor(int(right - MARK_H / 2), int(top + 2))
        row = [image.pixelColor(x, y) for y in range(int(top) + 1, int(top + MARK_H) - 1)
               for x in range(int(left + MARK_H / 2), int(right - MARK_H / 2))]
        assert image.pixelColor(int(thumb.left()) + 2, int(top + MARK_H / 2)) == QColor(picture)
        text = max(row, key=lambda c: contrast(c, fill))  # the text's most inked pixel
        assert contrast(text, fill) >= 4.5, (scheme, picture, fill.name(), text.name())
    finally:
        palette.use_scheme("dark")

