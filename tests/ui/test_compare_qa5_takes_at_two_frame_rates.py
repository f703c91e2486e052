"""Compare plays takes made at different frame rates (and sizes) in step by time, not frame
for frame: a 16 fps take beside an 8 fps one showed its frames at 8 a second, in slow
motion, and the window's clock read the first take's rate for both."""

from __future__ import annotations

from pathlib import Path

from tests.ui.conftest import SMALL_SKETCH
from tests.ui.rerolled_takes import JOB_TIMEOUT_MS, done_with_clips


def test_takes_at_8_and_16_fps_play_in_step_by_time(make_window, sample_project: Path, settings, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    ws.reroll(leaf)  # 160 x 112 at 8 fps
    qtbot.waitUntil(lambda: len(done_with_clips(session, leaf)) == 1, timeout=JOB_TIMEOUT_MS)
    settings.set_engine_values("sketch", {**SMALL_SKETCH, "width": 224, "height": 160, "fps": 16.0})
    ws.reroll(leaf)
    qtbot.waitUntil(lambda: len(done_with_clips(session, leaf)) == 2, timeout=JOB_TIMEOUT_MS)
    session.settle()
    slow, fast = done_with_clips(session, leaf)
    assert float(fast.settings["fps"]) == 16.0 and float(slow.settings.get("fps", 8.0)) == 8.0

    compare = ws.compare_takes()
    assert compare is not None and [c.take.id for c in compare.columns] == [slow.id, fast.id]
    qtbot.waitUntil(lambda: all(c.player.frame_count == 6 for c in compare.columns), timeout=10_000)
    qtbot.wait(50)
    compare.pause()

    compare.seek(4)  # a quarter of a second at 16 fps
    assert compare.position.text() == "0:00.3 / 0:00.8"  # elapsed (0.25 s rounds up) / total, as elsewhere
    assert compare.frames() == [2, 4]  # the 8 fps take is two frames into it, the 16 fps one four
    compare.seek(compare.frame_count - 1)  # the end: the 8 fps take's last frame (0.75 s)
    assert compare.frame_count == 12
    assert compare.frames() == [5, 5]
