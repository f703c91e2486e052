"""A burned caption keeps below the state overlay.

In a small frame (128x72, 96x64) a caption of three lines rose over the overlay's panel
and hid its lower bars ("Fun", "Social") behind the caption's band. The band now keeps to
the rows below the panel, in fewer lines where it must (the cut is noted, as before)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.core import AddDialogueLine
from studio.export import CaptionMode, ExportOptions, export_branch

from .helpers import Fixture, decode

LINE = ("I'll bring the parcel to the bakery before sunset, then the letters to the harbour, "
        "and the flowers to the lighthouse keeper, I promise!")


def _first_frame(story: Fixture, path: Path, size: tuple[int, int], overlay: bool, captions: bool) -> np.ndarray:
    options = ExportOptions(size=size, overlay=overlay, captions=CaptionMode.BURN if captions else CaptionMode.NONE)
    export_branch(story.project, story.leaf, path, options=options)
    frame: np.ndarray = decode(path)[0].astype(int)
    return frame


def _changed_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.nonzero((np.abs(a - b).max(axis=2) > 40).any(axis=1))[0]


@pytest.mark.parametrize("size", [(128, 72), (96, 64), (160, 90)])
def test_the_caption_band_leaves_the_overlay_whole(story: Fixture, tmp_path: Path, size: tuple[int, int]) -> None:
    for node in story.nodes:
        story.project.apply(AddDialogueLine(node, "Qiqi", LINE))
    name = f"{size[0]}x{size[1]}"
    plain = _first_frame(story, tmp_path / f"plain-{name}.mp4", size, overlay=False, captions=False)
    overlay = _first_frame(story, tmp_path / f"overlay-{name}.mp4", size, overlay=True, captions=False)
    both = _first_frame(story, tmp_path / f"both-{name}.mp4", size, overlay=True, captions=True)
    overlay_rows = _changed_rows(overlay, plain)
    caption_rows = _changed_rows(both, overlay)
    assert overlay_rows.size and caption_rows.size, "both are drawn"
    # the caption's band changed rows of the overlay's panel: it was drawn over it
    assert caption_rows.min() > overlay_rows.max(), (
        f"the caption (rows {caption_rows.min()}..{caption_rows.max()}) covers the overlay "
        f"(rows {overlay_rows.min()}..{overlay_rows.max()})")
    assert caption_rows.max() < size[1] - 1, "the caption stays inside the frame"
