"""Compare… opens whatever frame rate a take's settings hold: a rate stored as text by another
program ("fast") raised ValueError while the window was built (Compare did nothing but log an
error), and an infinite one made the clock tick as fast as it could."""

from __future__ import annotations

import math

from studio.core.model import Take, TakeStatus
from studio.ui.inspector.compare_window import DEFAULT_FPS, CompareWindow, clip_fps
from studio.ui.media_cache import ClipCache


def _take(take_id: str, fps: object) -> Take:
    return Take(id=take_id, node_id="n", engine="sketch", status=TakeStatus.DONE, clip_path=f"{take_id}.mp4",
                settings={"fps": fps})


def test_odd_rates_read_as_the_default() -> None:
    for odd in ("fast", math.inf, math.nan, -8, 0, [8], True):
        assert clip_fps([_take("a", odd)]) == DEFAULT_FPS, odd
    assert clip_fps([_take("a", "12")]) == 12.0
    assert clip_fps([_take("a", None), _take("b", 16)]) == 16.0


def test_the_window_opens_on_a_take_with_a_rate_stored_as_text(qtbot) -> None:  # type: ignore[no-untyped-def]
    takes = [_take("a", "fast"), _take("b", "fast")]
    window = CompareWindow("Turn 1", takes, "a", {}, ClipCache(), lambda rel: "")
    qtbot.addWidget(window)
    assert len(window.columns) == 2 and window.fps == DEFAULT_FPS
