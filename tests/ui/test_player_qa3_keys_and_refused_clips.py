"""The branch player by keyboard and with a clip it can't read.

- "," and "." step a frame back and on, as the step buttons' tooltips said; they did nothing.
- A clip the project refused to name (a stored path outside the project folder reaches the
  player as "") stood on the timeline as "decoding…" for ever, and no clip after it played:
  it now takes a stand-in that says the clip is missing, as a deleted file does.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.ui.media_cache import ClipCache
from studio.ui.player import MISSING_FRAMES, MISSING_TEXT, Player

from .solid_clips import solid_clips

FRAMES = 4


def _clips(folder: Path, count: int) -> list[str]:
    return solid_clips(folder, count, frames=FRAMES, height=32, width=48, shade_step=40)


def _shown_player(qtbot: QtBot) -> Player:
    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    qtbot.waitExposed(player)
    player.activateWindow()  # shortcuts answer in the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is player, timeout=5_000)
    return player


def test_comma_and_period_step_frames(qtbot: QtBot, tmp_path: Path) -> None:
    player = _shown_player(qtbot)
    player.set_clips(_clips(tmp_path, 2))
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    qtbot.mouseClick(player.view, Qt.MouseButton.LeftButton)  # the picture takes the focus
    assert player.view.hasFocus()
    assert "(.)" in player.forward_button.toolTip() and "(,)" in player.back_button.toolTip()
    qtbot.keyClick(player.view, Qt.Key.Key_Period)
    qtbot.keyClick(player.view, Qt.Key.Key_Period)
    assert player.frame == 2
    qtbot.keyClick(player.view, Qt.Key.Key_Comma)
    assert player.frame == 1
    player.slider.setFocus()
    qtbot.keyClick(player.slider, Qt.Key.Key_Period)
    assert player.frame == 2 and not player.playing


def test_a_refused_clip_stands_in_and_the_next_clip_plays(qtbot: QtBot, tmp_path: Path) -> None:
    first, last = _clips(tmp_path, 2)
    player = _shown_player(qtbot)
    player.set_clips([first, "", last])
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    assert player.frame_count == 2 * FRAMES + MISSING_FRAMES
    player.seek(FRAMES)
    assert player.view.message == MISSING_TEXT
    player.seek(FRAMES + MISSING_FRAMES)
    qtbot.waitUntil(lambda: player.view.image is not None, timeout=10_000)
    assert player.view.image.pixelColor(1, 1).red() > 20, "the clip after it shows"
