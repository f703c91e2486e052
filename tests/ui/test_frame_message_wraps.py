"""A player's message (a missing or damaged clip, an engine's error on a failed take) wraps
inside its view: written on one centred line, a take tile (four side by side in the
inspector) showed "…issing or damaged: re-roll thi…", cut at both ends."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage

from studio.ui import palette
from studio.ui.player import MISSING_TEXT, FrameView


def _edge_has_ink(image: QImage, background: QColor) -> bool:
    """Whether anything but the background was painted on the image's outer pixels."""
    w, h = image.width(), image.height()
    edge = [(x, y) for x in range(w) for y in (0, h - 1)] + [(x, y) for y in range(h) for x in (0, w - 1)]
    return any(image.pixelColor(x, y) != background for x, y in edge)


def _ink(image: QImage, background: QColor) -> int:
    return sum(image.pixelColor(x, y) != background for x in range(0, image.width(), 2)
               for y in range(0, image.height(), 2))


@pytest.mark.parametrize("message", [
    MISSING_TEXT,
    "The engine stopped: CUDA out of memory while decoding (tried to allocate 2.00 GiB)",
    "/home/someone/projects/a_very_long_folder_name_without_spaces/clip.mp4",
])
def test_a_message_is_written_whole_in_a_narrow_view(qtbot, message: str) -> None:
    view = FrameView()
    qtbot.addWidget(view)
    view.resize(150, 110)  # a tile of four side by side
    view.set_image(None, message)
    view.show()
    qtbot.waitExposed(view)
    image = view.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    background = QColor(palette.POSTER_EMPTY)
    assert _ink(image, background) > 20, "the message is painted"
    assert not _edge_has_ink(image, background), "the message runs past the view's edges (cut)"
