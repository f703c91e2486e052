"""In a portrait video (--size 360x640, 1080x1920: vertical video for phones) the state
overlay's type was sized by the frame's height: its labels and values took the panel's width
and each bar was drawn at its shortest, a stub of 17 pixels, where a landscape frame's bars
take half the panel. The type now follows the frame's shorter side, and the panel takes more
of a portrait frame's width, so the bars can be read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.export import ExportOptions, export_branch
from studio.export.drawing import STAT_COLOURS

from .helpers import Fixture, decode

TRACK = (70, 70, 80)


def _longest_bar(frame: np.ndarray) -> int:
    """The longest horizontal run, in the frame's top-left quarter, of pixels of a bar's colours
    (its track, or a stat's fill): how long the overlay draws its bars."""
    height, width = frame.shape[:2]
    corner = frame[: height // 4, : width // 2].astype(int)
    colours = np.array([TRACK, *STAT_COLOURS.values()])
    near = (np.abs(corner[:, :, None, :] - colours[None, None, :, :]).max(axis=3) <= 24).any(axis=2)
    longest = 0
    for row in near:
        run = 0
        for hit in row:
            run = run + 1 if hit else 0
            longest = max(longest, run)
    return longest


@pytest.mark.parametrize("size", [(360, 640), (720, 1280)])
def test_portrait_bars_are_not_stubs(story: Fixture, tmp_path: Path, size: tuple[int, int]) -> None:
    out = tmp_path / "vertical.mp4"
    export_branch(story.project, story.leaf, out, options=ExportOptions(size=size, overlay=True))
    frames = decode(out)
    assert frames.shape[1:3] == (size[1], size[0])
    bar = _longest_bar(frames[0])
    assert bar >= size[0] * 0.2, f"the bars are {bar} pixels long in a {size[0]}-pixel wide frame"


def test_landscape_bars_keep_their_length(story: Fixture, tmp_path: Path) -> None:
    """The reference the portrait bars are held to: a landscape frame's bars. The 3:2 clips
    show 540 pixels wide in a 640x360 frame, between side bars, and the panel keeps to that
    picture (test_qa42_overlay_and_caption_keep_to_the_picture): its bars take a sixth of it."""
    out = tmp_path / "wide.mp4"
    export_branch(story.project, story.leaf, out, options=ExportOptions(size=(640, 360), overlay=True))
    assert _longest_bar(decode(out)[0]) >= 540 / 6
