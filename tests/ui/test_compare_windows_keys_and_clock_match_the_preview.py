"""The two compare windows behave as the episode preview does:

- their time reads "elapsed / total" (0:01.2 / 0:03.0): Compare takes read "1.25 s", no total;
- "," and "." pause and step the shared clock a frame back and on, stopping at either end
  (neither window had the keys);
- Space presses a focused button ("Show in the main window" toggled the playback instead),
  and plays and pauses elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from studio.core.model import Take
from studio.ui.inspector.compare_window import CompareWindow
from studio.ui.media_cache import ClipCache
from studio.ui.player import format_clock

from .solid_clips import solid_clips


def _active(window: QWidget, qtbot: QtBot) -> None:
    """``window`` shown and active: its shortcuts answer only then."""
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)


def test_compare_takes_steps_by_keys_and_shows_elapsed_and_total(qtbot: QtBot, tmp_path: Path) -> None:
    files = solid_clips(tmp_path, 2, frames=24, fps=8.0)  # two takes of 3 s
    takes = [Take(f"t{index}", "turn", "sketch", clip_path=Path(path).name, seed=index)
             for index, path in enumerate(files)]
    compare = CompareWindow("Turn 1", takes, "t0", {}, ClipCache(), lambda rel: str(tmp_path / rel))
    qtbot.addWidget(compare)
    _active(compare, qtbot)
    qtbot.waitUntil(lambda: all(c.player.frame_count == 24 for c in compare.columns)
                    and compare.slider.maximum() == 23, timeout=10_000)
    assert compare.position.text() == "0:00.0 / 0:03.0"

    compare.slider.setFocus()
    qtbot.keyClick(compare.slider, Qt.Key.Key_Comma)
    assert compare.frame == 0 and compare.frames() == [0, 0], "a step back from the start stays there"
    compare.play()
    qtbot.keyClick(compare.slider, Qt.Key.Key_Period)
    assert not compare.playing and compare.frame == 1 and compare.frames() == [1, 1]
    compare.seek(10)
    assert compare.position.text() == f"{format_clock(10 / 8)} / 0:03.0"
    compare.seek(23)
    qtbot.keyClick(compare.slider, Qt.Key.Key_Period)
    assert compare.frame == 23 and compare.frames() == [23, 23], "a step on from the end stays there"
    qtbot.keyClick(compare.slider, Qt.Key.Key_Comma)
    assert compare.frame == 22
    assert compare.position.text() == f"{format_clock(22 / 8)} / 0:03.0"

    locked: list[int] = []
    compare.seed_locked.connect(locked.append)
    button = compare.columns[1].lock_button
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)  # a focused button takes Space
    assert locked == [1] and not compare.playing
    qtbot.keyClick(button, Qt.Key.Key_Period)  # the step keys answer anywhere in the window
    assert compare.frame == 23
    compare.close()


def _branch_compare(make_window, sample_project: Path, qtbot: QtBot):  # type: ignore[no-untyped-def]
    """The Compare branches window on the sample story, shown and active. No turn has a clip
    yet: each stands in for its set duration, so the clock has a timeline to step through."""
    window = make_window(sample_project)
    compare = window.workspace.compare_branches()
    assert compare is not None, window.status_label.text()
    _active(compare, qtbot)
    qtbot.waitUntil(lambda: compare.duration > 1.0, timeout=10_000)
    return compare


def test_compare_branches_steps_by_keys_and_stops_at_the_ends(make_window, sample_project: Path,
                                                              qtbot: QtBot) -> None:
    compare = _branch_compare(make_window, sample_project, qtbot)
    total = format_clock(compare.duration)
    assert compare.time_label.text() == f"0:00.0 / {total}"
    step = 1 / compare.fps

    qtbot.keyClick(compare, Qt.Key.Key_Comma)
    assert compare.position == 0.0, "a step back from the start stays there"
    compare.play()
    qtbot.keyClick(compare, Qt.Key.Key_Period)
    assert not compare.playing and abs(compare.position - step) < 1e-6
    qtbot.keyClick(compare, Qt.Key.Key_Period)
    assert abs(compare.position - 2 * step) < 1e-6
    assert compare.time_label.text() == f"{format_clock(2 * step)} / {total}"
    qtbot.keyClick(compare, Qt.Key.Key_Comma)
    assert abs(compare.position - step) < 1e-6

    compare.seek(compare.duration)  # the slider's end
    ends = compare.times()
    qtbot.keyClick(compare, Qt.Key.Key_Period)
    assert compare.times() == ends, "a step on from the end stays on the last frame"
    qtbot.keyClick(compare, Qt.Key.Key_Comma)
    assert max(compare.times()) < max(ends), "a step back from the end shows the frame before the last"
    compare.close()


def test_compare_branches_space_presses_a_focused_button(make_window, sample_project: Path, qtbot: QtBot) -> None:
    compare = _branch_compare(make_window, sample_project, qtbot)
    shown: list[str] = []
    compare.leaf_shown.connect(shown.append)
    button = compare.right.show_button
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)  # a focused button takes Space
    assert shown == [compare.right.leaf] and not compare.playing
    compare.slider.setFocus()
    qtbot.keyClick(compare.slider, Qt.Key.Key_Space)  # elsewhere Space plays and pauses
    assert compare.playing
    qtbot.keyClick(compare.slider, Qt.Key.Key_Space)
    assert not compare.playing
    compare.close()
