"""The destination folder removed (or moved) while an export runs: the message says so.

QA deleted the folder while an episode was being encoded and read what failed next inside
the hidden work folder: "ffmpeg could not write ep.mp4: Error writing trailer: No such file
or directory", "ffmpeg could not write palette.png ...", "Nothing was written for ep.webm",
or a PDF's "No such file or directory (/.../.ep.export-.../000/ep.pdf)"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from studio.core.progress import Progress
from studio.export import ExportError, ExportOptions, export_branch

from .helpers import Fixture


@pytest.mark.parametrize(("name", "options", "phase"), [
    ("episode.mp4", ExportOptions(stream_copy=False), "encoding mp4"),
    ("episode.webm", ExportOptions(crossfade=0.25), "encoding webm"),
    ("episode.gif", ExportOptions(), "encoding gif: pass 2"),
    ("board.pdf", ExportOptions(panels_per_page=1), "page 2"),
    ("board.png", ExportOptions(panels_per_page=1), "page 2"),
])
def test_a_folder_removed_while_exporting_is_named(story: Fixture, tmp_path: Path, name: str,
                                                   options: ExportOptions, phase: str) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    removed: list[str] = []

    def progress(report: Progress) -> None:
        if not removed and report.message.startswith(phase) and report.step > 0:
            shutil.rmtree(folder)
            removed.append(report.message)

    with pytest.raises(ExportError) as raised:
        export_branch(story.project, story.leaf, folder / name, options=options, progress=progress)

    assert removed, f"the export never reached {phase!r}: {raised.value.message} {raised.value.hint}"
    error = raised.value
    assert error.message == (f"The folder {folder} was removed or moved while the export ran, so {name} was not "
                             "written.")
    assert "again" in error.hint
    assert not folder.exists(), "nothing made the folder again"


def test_a_folder_moved_while_exporting_is_named_and_gets_no_file(story: Fixture, tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    moved = tmp_path / "elsewhere"

    def progress(report: Progress) -> None:
        if report.message.startswith("encoding mp4") and report.step > 0 and folder.exists():
            folder.rename(moved)

    with pytest.raises(ExportError, match="was removed or moved while the export ran"):
        export_branch(story.project, story.leaf, folder / "episode.mp4", options=ExportOptions(overlay=True),
                      progress=progress)
    assert not (moved / "episode.mp4").exists()
    assert not (folder / "episode.mp4").exists()
