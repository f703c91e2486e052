"""The time a player or compare window reads rounds a half tenth up, always.

``round`` rounded half to even: 0.25 s read 0:00.2 while 0.35 s read 0:00.4, so a clip at
8 fps read 0:00.1, 0:00.2, 0:00.4 for its frames 1-3 (0:00.3 skipped).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from studio.core.model import Take
from studio.ui.inspector.compare_window import CompareWindow
from studio.ui.media_cache import ClipCache
from studio.ui.player import format_clock

from .solid_clips import solid_clips


@pytest.mark.parametrize(("seconds", "shown"), [
    (0.25, "0:00.3"), (0.35, "0:00.4"), (0.05, "0:00.1"), (0.15, "0:00.2"), (2.45, "0:02.5"),
    (59.95, "1:00.0"), (0.24, "0:00.2"), (0.0, "0:00.0"), (-1.0, "0:00.0"), (75.0, "1:15.0"),
])
def test_a_half_tenth_rounds_up(seconds: float, shown: str) -> None:
    assert format_clock(seconds) == shown


def test_frames_at_8_fps_read_every_tenth_in_turn() -> None:
    """Frame k at 8 fps starts at k/8 s: the clock never skips a tenth it should show, and
    never goes back."""
    shown = [format_clock(frame / 8) for frame in range(17)]
    assert shown[:5] == ["0:00.0", "0:00.1", "0:00.3", "0:00.4", "0:00.5"]
    assert shown[6] == "0:00.8" and shown[10] == "0:01.3"  # 0.75 s and 1.25 s, both halves
    assert shown == sorted(shown)


def test_compare_window_reads_frame_2_at_8_fps_as_0_3(qtbot: QtBot, tmp_path: Path) -> None:
    files = solid_clips(tmp_path, 2, frames=20, fps=8.0)  # 2.5 s each
    takes = [Take(f"t{index}", "turn", "sketch", clip_path=Path(path).name, seed=index)
             for index, path in enumerate(files)]
    compare = CompareWindow("Turn 1", takes, "t0", {}, ClipCache(), lambda rel: str(tmp_path / rel))
    qtbot.addWidget(compare)
    compare.show()
    qtbot.waitUntil(lambda: compare.slider.maximum() == 19, timeout=10_000)
    compare.seek(2)
    assert compare.position.text() == "0:00.3 / 0:02.5"
