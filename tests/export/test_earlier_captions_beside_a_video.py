"""A video exported without SRT captions where an earlier export left its ``.srt`` beside it
says so: players load a subtitle file of the video's name with it, so the old cues showed over
the burned captions, doubled and timed for the earlier cut. The file itself is kept (it may
have been edited or translated by hand)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import CaptionMode, ExportOptions, export_branch

from .helpers import Fixture


@pytest.mark.parametrize(("captions", "said"), [(CaptionMode.BURN, "over the captions burned into it"),
                                                (CaptionMode.NONE, "though it has none")])
def test_a_video_without_srt_names_the_earlier_srt_beside_it(story: Fixture, tmp_path: Path,
                                                             captions: CaptionMode, said: str) -> None:
    out = tmp_path / "ep.mp4"
    first = export_branch(story.project, story.leaf, out, options=ExportOptions(captions=CaptionMode.SRT))
    srt = tmp_path / "ep.srt"
    assert srt in first.paths
    assert not any("ep.srt" in note for note in first.notes)
    srt.write_text(srt.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # edited by hand
    edited = srt.read_bytes()

    again = export_branch(story.project, story.leaf, out, options=ExportOptions(captions=captions))

    assert [note for note in again.notes if "ep.srt" in note] == [
        f"ep.srt beside the video is from an earlier export, and players show it with the video, {said}; remove "
        "or rename it if its captions are not wanted."]
    assert srt.read_bytes() == edited, "the user's file is kept as it is"


def test_no_note_without_an_srt_beside_the_video(story: Fixture, tmp_path: Path) -> None:
    (tmp_path / "other.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nHi\n", encoding="utf-8")
    done = export_branch(story.project, story.leaf, tmp_path / "ep.mp4",
                         options=ExportOptions(captions=CaptionMode.BURN))
    assert not any(".srt" in note for note in done.notes)
