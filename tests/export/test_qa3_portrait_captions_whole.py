"""A burned caption in a portrait video (--size 360x640, 720x1280: vertical video for phones)
took its type from the frame's height: 53 pixels in 720x1280, a third of the words a line
of a landscape frame of that width holds, so a narration of two lines in 1280x720 was cut
short ("...her ticket still crumple…") in 720x1280. The type now follows the shorter side."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from studio.core import SetDuration, SetNarration
from studio.export import CaptionMode, ExportOptions, export_branch

from .helpers import Fixture, decode

NARRATION = ("The morning train had already left the station when Qiqi reached the platform, her ticket "
             "still crumpled in her hand.")


@pytest.mark.parametrize("size", [(360, 640), (720, 1280), (640, 360)])
def test_a_two_line_narration_is_burned_whole(story: Fixture, tmp_path: Path, size: tuple[int, int]) -> None:
    story.project.apply(SetNarration(story.nodes[0], NARRATION))
    story.project.apply(SetDuration(story.nodes[0], 3.0))  # time for its subtitles: shown whole
    out = tmp_path / "episode.mp4"
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(size=size, captions=CaptionMode.BURN))
    assert not any("caption" in note for note in result.notes), result.notes
    frame = decode(out)[0]
    width, height = size
    band = frame[height * 3 // 4:, width // 4: width * 3 // 4].astype(int)
    assert (np.abs(band - np.array([255, 255, 255])).max(axis=2) < 60).any(), "the caption's white text is drawn"
