"""A video in a very tall format (200x1200, more than three times as tall as wide) with the
state overlay: the overlay was left out, its note saying the frame had no room and asking
for "a --size of at least 62x59", smaller than the frame was. The margin followed the
frame's height and took the room its narrow width left. Read back from real mp4 files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.export import ExportOptions, export_branch

from .helpers import Fixture, decode


@pytest.mark.parametrize("size", [(200, 1200), (120, 720), (160, 960)])
def test_the_overlay_is_drawn_in_a_very_tall_frame(story: Fixture, tmp_path: Path, size: tuple[int, int]) -> None:
    plain = export_branch(story.project, story.leaf, tmp_path / "plain.mp4", options=ExportOptions(size=size))
    shown = export_branch(story.project, story.leaf, tmp_path / "shown.mp4",
                          options=ExportOptions(size=size, overlay=True))
    assert not any("overlay was left out" in note for note in shown.notes), shown.notes
    assert plain.frames == shown.frames
    without, with_overlay = decode(tmp_path / "plain.mp4"), decode(tmp_path / "shown.mp4")
    assert with_overlay.shape[1:3] == (size[1], size[0])
    changed = np.abs(with_overlay[0].astype(int) - without[0].astype(int)).max(axis=2) > 40
    rows, columns = np.nonzero(changed)
    assert rows.size, "the overlay is drawn"
    width, height = size
    assert columns.min() >= 1 and columns.max() < width * 0.6 + 1  # in the top-left corner, inside the frame
    assert rows.max() < height * 0.6
