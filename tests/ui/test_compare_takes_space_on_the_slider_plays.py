"""In the Compare takes window, Space plays and pauses with the focus on the time slider (after
a scrub, by mouse or by keys), as it does on the Play button; it did nothing there."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.model import Take
from studio.ui.inspector.compare_window import CompareWindow
from studio.ui.media_cache import ClipCache

from .solid_clips import solid_clips


def test_space_on_the_slider_plays_and_pauses(qtbot, tmp_path: Path) -> None:
    files = solid_clips(tmp_path, 2, frames=24, fps=lambda index: 24.0 if index == 0 else 8.0)
    takes = [Take(f"t{index}", "turn", "sketch", clip_path=Path(path).name) for index, path in enumerate(files)]
    compare = CompareWindow("Turn 1", takes, "t0", {}, ClipCache(), lambda rel: str(tmp_path / rel))
    qtbot.addWidget(compare)
    compare.show()
    # the 8 fps take: 3 s at 24 a second; the slider's range follows once the clip is in (a queued call)
    qtbot.waitUntil(lambda: compare.frame_count == 72 and compare.slider.maximum() == 71, timeout=10_000)
    compare.slider.setFocus()
    qtbot.keyClick(compare.slider, Qt.Key.Key_End)
    assert compare.frame == 71 and compare.frames() == [23, 23]
    qtbot.keyClick(compare.slider, Qt.Key.Key_Home)
    assert compare.frame == 0
    qtbot.keyClick(compare.slider, Qt.Key.Key_Space)
    assert compare.playing and "Space" in compare.play_button.toolTip()
    qtbot.keyClick(compare.slider, Qt.Key.Key_Space)
    assert not compare.playing
