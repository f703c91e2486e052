"""A double click on a filmstrip turn plays the branch from that turn, even when its clip is
still being decoded (a long branch just opened): playback waits for that clip instead of
starting from the first one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QMouseEvent

from studio.core.state import CharacterState
from studio.storage.media import write_clip
from studio.ui.episode.episode_panel import EpisodePanel
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.node_summary import CardStatus, NodeSummary

TURNS = 6


def _summary(index: int, clip: str) -> NodeSummary:
    return NodeSummary(node_id=f"n{index}", title=f"Turn {index}", excerpt=f"turn {index}",
                       state=CharacterState(), motion_level=None,
                       status=CardStatus.START if index == 0 else CardStatus.DONE, bookmarked=False,
                       poster_path="", clip_path=clip, take_count=1 if clip else 0)


def test_double_click_plays_from_the_turn_before_its_clip_is_decoded(qtbot, tmp_path: Path) -> None:
    summaries = [_summary(0, "")]
    for index in range(1, TURNS + 1):
        write_clip(tmp_path / f"t{index}.mp4", np.full((4, 48, 64, 3), 20 * index, np.uint8), 8.0)
        summaries.append(_summary(index, f"t{index}.mp4"))
    panel = EpisodePanel(PosterCache(), ClipCache(), lambda rel: str(tmp_path / rel) if rel else "")
    qtbot.addWidget(panel)
    panel.show()
    frames: list[int] = []
    branch = [s.node_id for s in summaries]
    panel.set_branch(branch, summaries, [CharacterState()] * len(branch), 0)
    assert not panel.player.ready  # the clips are still being decoded
    panel.player.frame_changed.connect(frames.append)

    target = 5  # its clip's frames are 16 to 19 of the branch (4 frames a clip, from turn 1)
    point = panel.strip.thumb_rect(target).center()
    panel.strip.mouseDoubleClickEvent(QMouseEvent(QEvent.Type.MouseButtonDblClick, point, point,
                                                  Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton,
                                                  Qt.KeyboardModifier.NoModifier))
    assert panel.player.playing
    qtbot.waitUntil(lambda: panel.player.ready and panel.player.frame >= 17, timeout=10_000)
    played = [f for f in frames if f > 0]  # frame 0 shows while the first clips decode
    assert played[0] == 16, f"playback went through frames {played[:6]}, not from turn {target}'s first frame"
    assert panel.strip.playing >= target
