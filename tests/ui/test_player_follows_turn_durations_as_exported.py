"""The branch player shows the episode as it is exported: a turn whose duration is set lasts
that long, its clip held on its last frame or cut, at the first clip's frame rate.

It played every clip at its own length, so its total time, its scrub bar and the frame at a
time disagreed with the exported episode (a turn set to 2 s whose clip is 0.75 s long
lasted 0.75 s in the window, 2 s in the mp4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from pytestqt.qtbot import QtBot

from studio.core.state import CharacterState, StateDeltas
from studio.core.story import StoryFields
from studio.export.api import export_collected
from studio.export.branch import Branch, Turn
from studio.export.options import ExportFormat, ExportOptions
from studio.storage.media import read_clip, write_clip
from studio.ui.media_cache import ClipCache
from studio.ui.player import Player, format_clock

TIMEOUT_MS = 120_000
SHADE_STEP = 6
CLIP_BASES = (0, 60, 150, 195)
"""Frame ``i`` of clip ``c`` is grey ``CLIP_BASES[c] + SHADE_STEP * (i + 1)``: a frame tells where it came from."""
CLOSE = 2
"""How far a grey may drift through the encoder."""


def _stepped_clips(folder: Path, specs: list[tuple[int, float]]) -> list[str]:
    paths = []
    for clip, (frames, fps) in enumerate(specs):
        shades = np.array([CLIP_BASES[clip] + SHADE_STEP * (i + 1) for i in range(frames)], np.uint8)
        pictures = np.broadcast_to(shades[:, None, None, None], (frames, 48, 64, 3)).copy()
        path = folder / f"clip{clip}.mp4"
        write_clip(path, pictures, fps)
        paths.append(str(path))
    return paths


def _branch(paths: list[str], durations: list[float | None]) -> Branch:
    turns = tuple(
        Turn(number=index + 1, node_id=f"n{index}", take_id=f"t{index}", instruction="walk", state=CharacterState(),
             deltas=StateDeltas(), clip=Path(path), poster=None, story=StoryFields(duration=duration))
        for index, (path, duration) in enumerate(zip(paths, durations, strict=True)))
    return Branch("story", f"n{len(paths) - 1}", CharacterState(), turns)


def _grey(image_or_frame: object) -> int:
    if isinstance(image_or_frame, np.ndarray):
        return int(image_or_frame[24, 32, 0])
    return int(image_or_frame.pixelColor(32, 24).red())  # type: ignore[attr-defined]


def test_player_timeline_is_the_exported_episodes(qtbot: QtBot, tmp_path: Path) -> None:
    # a short clip held to 2 s, a long one cut to 0.5 s, one at its own length, one at another rate
    specs = [(6, 8.0), (10, 8.0), (5, 8.0), (6, 16.0)]
    durations: list[float | None] = [2.0, 0.5, None, 1.0]
    paths = _stepped_clips(tmp_path, specs)
    out = tmp_path / "episode.mp4"
    export_collected(_branch(paths, durations), out, ExportFormat.MP4, ExportOptions())
    exported, fps = read_clip(out)
    assert fps == 8.0 and len(exported) == 16 + 4 + 5 + 8  # what the export made (the player must agree)

    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    player.set_clips(paths, lengths=list(specs), durations=durations)
    qtbot.waitUntil(lambda: player.ready, timeout=TIMEOUT_MS)
    assert player.frame_count == len(exported)
    assert player.slider.maximum() == len(exported) - 1
    total = format_clock(len(exported) / fps)
    assert player.time_label.text().endswith(f" / {total}")
    for frame in (0, 5, 6, 15, 16, 19, 20, 24, 25, 26, 32):
        player.seek(frame)
        qtbot.waitUntil(lambda: player.view.image is not None, timeout=TIMEOUT_MS)
        assert abs(_grey(player.view.image) - _grey(exported[frame])) <= CLOSE, f"frame {frame}"
        assert player.time_label.text() == f"{format_clock(frame / fps)} / {total}"


def test_a_duration_changed_while_playing_keeps_the_place(qtbot: QtBot, tmp_path: Path) -> None:
    paths = _stepped_clips(tmp_path, [(6, 8.0), (6, 8.0)])
    player = Player(ClipCache())
    qtbot.addWidget(player)
    player.show()
    player.set_clips(paths, lengths=[(6, 8.0)] * 2)
    qtbot.waitUntil(lambda: player.ready, timeout=TIMEOUT_MS)
    assert player.frame_count == 12
    player.play(from_segment=1, at_frame=2)
    assert player.playing and player.segment_index == 1
    player.pause()
    player.set_clips(paths, lengths=[(6, 8.0)] * 2, durations=[3.0, None])  # turn 1 set to 3 s
    assert player.frame_count == 24 + 6
    assert player.segment_index == 1 and player.frame == 24 + 2, "the position stays in the clip it was in"
    assert player.time_label.text().endswith(f" / {format_clock(30 / 8.0)}")
    player.seek(20)  # the first turn's held last frame
    assert player.view.image is not None and abs(_grey(player.view.image) - SHADE_STEP * 6) <= CLOSE
