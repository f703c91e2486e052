"""A Japanese episode's SRT file and burned captions, read back from real exports: UTF-8
without a byte-order mark, markup typed in a Japanese line disarmed as in an English one, the
Japanese kept character for character; the burned caption's glyphs drawn in the video."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.core import AddDialogueLine, SetDuration
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.drawing import caption_patch

from .helpers import COLOURS, SIZE, Fixture, decode, parse_srt

LINE = "<i>強調</i>して --> 矢印{\\an8}です。"


def test_srt_is_plain_utf8_and_disarms_markup_in_japanese(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(AddDialogueLine(story.nodes[0], "美咲", LINE))
    story.project.apply(SetDuration(story.nodes[0], 4.0))
    raw = export_branch(story.project, story.leaf, tmp_path / "ja.srt").path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf") and b"\r" not in raw
    text = raw.decode("utf-8")
    entries = parse_srt(text)
    # two lines of a Japanese subtitle (at most 26 columns each), broken at the space
    assert entries[0][2].split("\n") == ["美咲: \u2039i\u203a強調\u2039/i\u203aして --\u203a",
                                         "矢印\u2774\\an8\u2775です。"]
    assert text.count("-->") == len(entries)  # only in the timing lines


def test_burned_japanese_caption_shows_in_the_video(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(AddDialogueLine(story.nodes[0], "美咲", "はい。"))
    story.project.apply(SetDuration(story.nodes[0], 1.0))
    out = export_branch(story.project, story.leaf, tmp_path / "ja.mp4",
                        options=ExportOptions(captions=CaptionMode.BURN))
    frame = decode(out.path)[0].astype(int)
    patch = caption_patch(SIZE, "美咲: はい。")
    assert patch is not None
    ink = (patch.rgba[..., :3].min(axis=2) > 200) & (patch.rgba[..., 3] > 200)  # the glyphs, drawn white
    assert ink.any()
    rows = slice(patch.y, patch.y + patch.rgba.shape[0])
    region = frame[rows][ink]
    plain = np.abs(frame[:patch.y - 4] - np.array(COLOURS[0])).max()
    assert plain <= 24, "above the caption the clip shows as it is"
    assert region.mean() > 150, "white glyphs where the layout drew them"
