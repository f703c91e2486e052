"""A paused compare window keeps every take on the frame it shows, also a take that joins it
while paused: its clip loads after the window has set the frame, and the window sets it again
once the new column's player holds the clip (it showed the first frame while the others showed
the frame paused on)."""

from __future__ import annotations

from pathlib import Path

from tests.ui.rerolled_takes import leaf_with_two_takes, reroll_until


def test_a_take_that_joins_a_paused_compare_window_shows_the_paused_frame(make_window, sample_project: Path,
                                                                            qtbot) -> None:
    ws, session, leaf, _other = leaf_with_two_takes(make_window, sample_project, qtbot)
    compare = ws.compare_takes()
    assert compare is not None and len(compare.columns) == 2
    qtbot.waitUntil(lambda: all(c.player.frame_count for c in compare.columns), timeout=10_000)
    compare.pause()
    compare.seek(3)
    assert compare.frames() == [3, 3]

    reroll_until(ws, session, qtbot, leaf, 3)
    qtbot.waitUntil(lambda: len(compare.columns) == 3 and all(c.player.frame_count for c in compare.columns),
                    timeout=10_000)
    qtbot.wait(100)  # what the window does once a clip has loaded
    assert not compare.playing
    assert compare.frame == 3 and compare.frames() == [3, 3, 3], "every take shows the frame paused on"
