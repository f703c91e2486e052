"""Every file an export writes is checked before anything is made, not only its main file.

A video with ``--captions srt`` writes an SRT beside it; a folder in the SRT's place, or an
SRT name too long for the file system, was found only when the SRT was written, after the
whole video had been encoded: the error came late and the encode was wasted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio.core.progress import Progress
from studio.export import CaptionMode, ExportError, ExportFormat, ExportOptions, collect_branch, export_task
from studio.export.api import export_collected

from .helpers import Fixture

SRT_BESIDE = ExportOptions(captions=CaptionMode.SRT, stream_copy=False)


def test_a_folder_where_the_srt_goes_is_refused_before_the_export_starts(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "out" / "episode.mp4"
    (tmp_path / "out" / "episode.srt").mkdir(parents=True)
    with pytest.raises(ExportError, match="episode.srt: a folder of that name exists"):
        export_task(story.project, story.leaf, out, SRT_BESIDE)  # not the job: the check itself
    assert [path.name for path in out.parent.iterdir()] == ["episode.srt"], "nothing written"


@pytest.mark.skipif(sys.platform == "win32", reason="Linux's 255-byte name limit")
def test_an_srt_name_too_long_is_refused_before_the_export_starts(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "out" / ("e" * 253)  # fits; "eee....srt" (257 bytes) does not
    out.parent.mkdir()
    with pytest.raises(ExportError, match="too long"):
        export_task(story.project, story.leaf, out, SRT_BESIDE, fmt="mp4")
    assert list(out.parent.iterdir()) == [], "nothing written"


def test_a_collected_branch_is_checked_before_its_clips_are_read(story: Fixture, tmp_path: Path) -> None:
    """:func:`export_collected` (a queued job, or a caller with a branch in hand) checks too:
    the folder may have changed since the branch was collected."""
    branch = collect_branch(story.project, story.leaf)
    (tmp_path / "late.srt").mkdir()
    seen: list[Progress] = []
    with pytest.raises(ExportError, match="late.srt: a folder of that name exists"):
        export_collected(branch, tmp_path / "late.mp4", ExportFormat.MP4, SRT_BESIDE, progress=seen.append)
    assert seen == [], "no clip read, no frame encoded"
    assert not (tmp_path / "late.mp4").exists()


def test_a_folder_where_a_png_page_goes_is_refused_before_any_page_is_drawn(story: Fixture,
                                                                           tmp_path: Path) -> None:
    (tmp_path / "board-02.png").mkdir()
    with pytest.raises(ExportError, match="board-02.png: a folder of that name exists"):
        export_task(story.project, story.leaf, tmp_path / "board.png", ExportOptions(panels_per_page=1))
    assert not (tmp_path / "board-01.png").exists()
