"""The branch player hidden, and its slider's keys.

- Hidden while playing (the panel folded away, the window minimised, a dock closed), the
  player went on ticking: decoding clips ahead and emitting frames nobody saw. It now stops
  its timer while hidden, still counts as playing, and plays on when shown again.
- The slider, focused, lost its arrow keys, Home and End to the window's shortcuts of those
  keys (they walk the turns of the tree): Right selected the next turn instead of stepping a
  frame. The focused slider now keeps them; Space still plays.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from studio.ui.media_cache import ClipCache
from studio.ui.player import Player

from .solid_clips import solid_clips


def _host(qtbot: QtBot) -> tuple[QWidget, Player]:
    host = QWidget()
    player = Player(ClipCache(), host)
    QVBoxLayout(host).addWidget(player)
    qtbot.addWidget(host)
    host.resize(400, 300)
    host.show()
    qtbot.waitExposed(host)
    return host, player


def test_a_hidden_player_does_not_tick_and_plays_on_when_shown(qtbot: QtBot, tmp_path: Path) -> None:
    host, player = _host(qtbot)
    player.set_clips(solid_clips(tmp_path, 2, frames=6))
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)
    player.play()
    host.hide()
    assert player.playing, "hidden, it still plays (on once shown)"
    assert not player._timer.isActive(), "a hidden player's timer ticks"
    player.pause()
    player.play()  # Play while hidden (the window's Play action): it waits to be seen
    assert player.playing and not player._timer.isActive()
    host.show()
    qtbot.waitExposed(host)
    assert player._timer.isActive()
    player.pause()
    host.hide()
    host.show()
    assert not player.playing, "paused before it was hidden, it stays paused"


def test_the_focused_slider_keeps_its_arrow_keys(qtbot: QtBot, tmp_path: Path) -> None:
    host, player = _host(qtbot)
    walked: list[str] = []
    for key in ("Right", "Left", "Home", "End"):  # as the workspace binds them: walk the tree
        action = QAction(key, host)
        action.setShortcut(QKeySequence(key))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(lambda _checked=False, k=key: walked.append(k))
        host.addAction(action)
    space = QAction("Play", host)
    space.setShortcut(QKeySequence("Space"))
    space.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    space.triggered.connect(player.toggle)
    host.addAction(space)
    host.activateWindow()  # shortcuts answer in the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is host, timeout=5_000)
    player.set_clips(solid_clips(tmp_path, 2, frames=6))
    qtbot.waitUntil(lambda: player.ready, timeout=10_000)

    player.slider.setFocus()
    qtbot.keyClick(player.slider, Qt.Key.Key_Right)
    qtbot.keyClick(player.slider, Qt.Key.Key_Right)
    assert player.frame == 2 and walked == []
    qtbot.keyClick(player.slider, Qt.Key.Key_Left)
    assert player.frame == 1
    qtbot.keyClick(player.slider, Qt.Key.Key_End)
    assert player.frame == player.frame_count - 1
    qtbot.keyClick(player.slider, Qt.Key.Key_Home)
    assert player.frame == 0 and walked == []
    qtbot.keyClick(player.slider, Qt.Key.Key_Space)
    assert player.playing, "Space on the slider plays, as elsewhere in the story area"
    player.pause()

    player.view.setFocus()  # elsewhere in the player the window's keys still walk the tree
    qtbot.keyClick(player.view, Qt.Key.Key_Right)
    assert walked == ["Right"]
