"""In the episode preview, "," on the first frame stays there and "." on the last frame stays
there, as in a video editor: they wrapped round to the other end of the whole branch."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from studio.ui.media_cache import ClipCache
from studio.ui.player import Player

from .solid_clips import solid_clips


def test_frame_steps_stop_at_the_first_and_the_last_frame(qtbot: QtBot, tmp_path: Path) -> None:
    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    qtbot.waitExposed(player)
    player.activateWindow()  # shortcuts answer in the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is player, timeout=5_000)
    player.set_clips(solid_clips(tmp_path, 3, frames=5, height=32, width=48))
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    last = player.frame_count - 1
    assert last == 14
    qtbot.mouseClick(player.view, Qt.MouseButton.LeftButton)  # the picture takes the focus

    qtbot.keyClick(player.view, Qt.Key.Key_Comma)
    assert player.frame == 0, "a step back from the first frame stays on it"
    assert player.time_label.text().startswith("0:00.0 / ")

    player.seek(last)
    player.play()
    qtbot.keyClick(player.view, Qt.Key.Key_Period)
    assert player.frame == last and not player.playing, "a step on from the last frame stays on it, paused"
    qtbot.keyClick(player.view, Qt.Key.Key_Comma)
    assert player.frame == last - 1

    player.forward_button.click()
    player.forward_button.click()  # the buttons step alike
    assert player.frame == last
    player.seek(0)
    player.back_button.click()
    assert player.frame == 0
