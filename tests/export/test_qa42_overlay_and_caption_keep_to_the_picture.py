"""A 3:2 clip exported at 16:9 (--size 1920x1080) is pillarboxed between black bars, and the
state panel was drawn partly in the left bar, the caption's band across both bars. Now both
keep to the picture: the bars stay black, and the panel and the caption sit on the picture."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.core import AddDialogueLine
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.compose import picture_box

from .helpers import Fixture, decode

SIZE = (320, 180)  # the clips are 96x64: shown 270x180, between bars of 25 pixels


def test_the_bars_stay_black_under_the_overlay_and_the_caption(story: Fixture, tmp_path: Path) -> None:
    assert picture_box(SIZE, (96, 64)) == (25, 0, 270, 180)
    said = "A caption wide enough to reach the bars of the frame."
    story.project.apply(AddDialogueLine(story.nodes[0], "Qiqi", said))
    options = ExportOptions(size=SIZE, overlay=True, captions=CaptionMode.BURN)
    frames = decode(export_branch(story.project, story.leaf, tmp_path / "hd.mp4", options=options).path)
    bars = np.concatenate([frames[:, :, :24], frames[:, :, -24:]], axis=2)
    assert int(bars.max()) <= 24, "nothing is drawn on the black bars"
    picture = frames[2][:, 26:-26]
    assert np.mean(np.all(picture[-60:] > 200, axis=2)) > 0.002, "the caption's words are on the picture"
    panel = picture[:50, :100].astype(int)
    assert np.abs(panel - np.array([220, 40, 40])).max(axis=2).mean() > 30, "the panel is on the picture's corner"
