"""An export that fails while its files take their places leaves the earlier export as it was.

QA found that when the second of an export's files could not be moved into place (a folder
of its name appeared while the export ran), the commit removed the new first file, which had
already replaced the earlier export's: the user lost page 1 of their sheet (or the video
beside an SRT) and got neither the old file nor the new one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.core.progress import Progress
from studio.export import CaptionMode, ExportError, ExportOptions, export_branch

from .helpers import Fixture, decode


def _work_folders(folder: Path) -> list[Path]:
    return [path for path in folder.iterdir() if ".export-" in path.name]


def _into_folder(path: Path) -> None:
    """Put a non-empty folder where the file ``path`` is: no file can be renamed onto it."""
    path.unlink()
    path.mkdir()
    (path / "keep.txt").write_text("the user's own")


def test_a_sheet_page_that_cant_take_its_place_leaves_every_earlier_page(story: Fixture, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "board.png"
    options = ExportOptions(panels_per_page=1)  # three turns: three pages
    first = export_branch(story.project, story.leaf, out, options=options)
    assert [path.name for path in first.paths] == ["board-01.png", "board-02.png", "board-03.png"]
    earlier = {path: path.read_bytes() for path in first.paths}

    def progress(report: Progress) -> None:
        if report.message == "sheet done":  # every page drawn; nothing moved into place yet
            _into_folder(folder / "board-03.png")

    with pytest.raises(ExportError) as raised:
        export_branch(story.project, story.leaf, out, options=options, progress=progress)

    assert str(folder / "board-03.png") in raised.value.message, "the message names the final file"
    assert ".export-" not in raised.value.message, "not the hidden work folder's copy"
    for path in first.paths[:2]:
        assert path.read_bytes() == earlier[path], f"{path.name} is the earlier export's page"
        with Image.open(path) as page:
            page.load()  # a whole PNG
    assert (folder / "board-03.png" / "keep.txt").read_text() == "the user's own"
    assert not _work_folders(folder)


def test_a_video_whose_srt_cant_take_its_place_keeps_the_earlier_video(story: Fixture, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "episode.mp4"
    srt = folder / "episode.srt"
    export_branch(story.project, story.leaf, out, options=ExportOptions(captions=CaptionMode.SRT))
    earlier_video, earlier_frames = out.read_bytes(), decode(out)

    def cancelled() -> bool:
        # the export's last look before its files are moved: both are finished in the work folder
        if any(any(work.glob("*/episode.srt")) for work in _work_folders(folder)) and srt.is_file():
            _into_folder(srt)
        return False

    with pytest.raises(ExportError, match="a folder of that name appeared"):
        export_branch(story.project, story.leaf, out, options=ExportOptions(captions=CaptionMode.SRT, crossfade=0.25),
                      cancelled=cancelled)

    assert out.read_bytes() == earlier_video, "the earlier video is back in its place"
    assert np.array_equal(decode(out), earlier_frames)
    assert not _work_folders(folder)


def test_a_commit_that_succeeds_replaces_the_earlier_files(story: Fixture, tmp_path: Path) -> None:
    """Keeping the earlier files aside for a rollback changes nothing when all goes well."""
    out = tmp_path / "episode.mp4"
    out.write_bytes(b"an earlier file")
    result = export_branch(story.project, story.leaf, out, options=ExportOptions(captions=CaptionMode.SRT))
    assert result.paths == (out, tmp_path / "episode.srt")
    assert len(decode(out)) == result.frames
    assert "-->" in (tmp_path / "episode.srt").read_text(encoding="utf-8")
    assert not _work_folders(tmp_path)
