"""Clips of one colour each, written as real mp4 files, for the player and cache tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from studio.storage.media import write_clip


def solid_clips(folder: Path, count: int, *, frames: int, height: int = 48, width: int = 64,
                fps: float | Callable[[int], float] = 8.0, shade_step: int = 20,
                name: str = "clip{index:02d}.mp4") -> list[str]:
    """``count`` clips in ``folder``, clip ``i`` of grey level ``shade_step * i`` (so a test can
    tell which clip a frame came from); ``fps`` may be a function of the clip's index."""
    paths = []
    for index in range(count):
        path = folder / name.format(index=index)
        rate = fps(index) if callable(fps) else fps
        write_clip(path, np.full((frames, height, width, 3), shade_step * index, np.uint8), rate)
        paths.append(str(path))
    return paths
