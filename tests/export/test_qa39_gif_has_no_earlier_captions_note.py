"""A GIF exported beside an earlier export's ``.srt`` has no note about it: GIF viewers never
load a subtitle file, so the old cues can't show with it (a video still gets the note)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import CaptionMode, ExportOptions, export_branch

from .helpers import Fixture


@pytest.mark.parametrize("captions", [CaptionMode.BURN, CaptionMode.NONE])
def test_a_gif_beside_an_srt_says_nothing_of_it(story: Fixture, tmp_path: Path, captions: CaptionMode) -> None:
    srt = tmp_path / "ep.srt"
    srt.write_text("1\n00:00:00,000 --> 00:00:01,000\nAn earlier cue\n", encoding="utf-8")

    done = export_branch(story.project, story.leaf, tmp_path / "ep.gif", options=ExportOptions(captions=captions))

    assert (tmp_path / "ep.gif").read_bytes()[:6] in (b"GIF87a", b"GIF89a")
    assert not any("ep.srt" in note for note in done.notes), done.notes
    assert srt.read_text(encoding="utf-8").endswith("An earlier cue\n"), "the file is left as it is"


def test_an_mp4_beside_the_same_srt_still_names_it(story: Fixture, tmp_path: Path) -> None:
    (tmp_path / "ep.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nAn earlier cue\n", encoding="utf-8")
    done = export_branch(story.project, story.leaf, tmp_path / "ep.mp4",
                         options=ExportOptions(captions=CaptionMode.NONE))
    assert any("ep.srt beside the video" in note for note in done.notes)
