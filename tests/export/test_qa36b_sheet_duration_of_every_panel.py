"""A storyboard sheet promises every panel its duration as the video gives it; a turn that
ran for its clip's own length (no duration set) showed none ("Turn 1 · Qiqi"), so its reader
could not time the cut. Now such a panel shows its clip's length in whole frames at the first
clip's rate (a clip of 12 frames at 12 fps in a video at 8 fps: 8 frames, 1 s), read back
from the PDF's text (pdftotext) and compared with each turn's frames in the OTIO timeline and
the video exported from the same branch. A clip that can't be read still leaves the sheet
exportable: that panel shows no duration."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import SetDuration
from studio.export import export_branch
from studio.export.branch import collect_branch
from studio.export.options import ExportOptions
from studio.export.sheet import poster_image, sheet_layout, sheet_turns
from studio.export.sheet_png import PngPage
from studio.export.storyboard import lay_out_sheet
from studio.storage import Project

from .helpers import COLOURS, FPS, add_turn, video_facts

HEADING = re.compile(r"Turn (\d+) · Qiqi(?: · ([\d.]+) s)?")


@pytest.fixture
def mixed(tmp_path: Path) -> Iterator[tuple[Project, list[str]]]:
    """Three turns: a clip of 6 frames at 8 fps, one of 12 frames at 12 fps, and a turn set
    to 0.8 s (its clip 6 frames at 8 fps); only the last has a duration set."""
    project = Project.create(tmp_path / "mixed", name="Mixed")
    text = "Character: Qiqi; Motion: wave; Background: day town."
    first = add_turn(project, project.tree.root_id, text, COLOURS[0], frames=6, fps=FPS)
    second = add_turn(project, first, text, COLOURS[1], frames=12, fps=12)
    third = add_turn(project, second, text, COLOURS[2], frames=6, fps=FPS)
    project.apply(SetDuration(third, 0.8))
    yield project, [first, second, third]
    project.close()


def _pdf_headings(path: Path) -> dict[int, float | None]:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    return {int(number): float(seconds) if seconds else None for number, seconds in HEADING.findall(text)}


def _otio_frames(path: Path) -> dict[int, int]:
    """Output frames each turn lasts in the exported timeline (its clip and any hold)."""
    timeline = otio.adapters.read_from_file(str(path))
    frames: dict[int, int] = defaultdict(int)
    for clip in timeline.tracks[0].find_clips():
        frames[int(clip.metadata["kamishibai"]["turn"])] += round(clip.source_range.duration.value)
    return dict(frames)


def test_every_panel_shows_the_seconds_the_video_gives_its_turn(mixed: tuple[Project, list[str]],
                                                                tmp_path: Path) -> None:
    project, nodes = mixed
    sheet = export_branch(project, nodes[-1], tmp_path / "board.pdf").path
    cut = _otio_frames(export_branch(project, nodes[-1], tmp_path / "cut.otio").path)
    video = video_facts(export_branch(project, nodes[-1], tmp_path / "cut.mp4").path)
    shown = _pdf_headings(sheet)
    assert shown == {1: 0.75, 2: 1.0, 3: 0.75}, shown  # 6 frames; 12 at 12 fps = 8 at 8; 0.8 s = 6 frames
    assert cut == {number: round(seconds * FPS) for number, seconds in shown.items() if seconds}
    assert video.frames == round(sum(s for s in shown.values() if s) * FPS)


def test_a_png_sheet_shows_them_too(mixed: tuple[Project, list[str]]) -> None:
    project, nodes = mixed
    turns = sheet_turns(collect_branch(project, nodes[-1]))
    layout = sheet_layout(ExportOptions(), poster_image(turns[0]))
    pages = lay_out_sheet(layout, turns, PngPage(layout).width)
    text = "\n".join(line.text for page in pages for panel in page for line in panel.lines)
    assert {int(n): float(s) for n, s in HEADING.findall(text)} == {1: 0.75, 2: 1.0, 3: 0.75}
    # the turns keep their story: a duration is only shown, never set
    assert [turn.duration for turn in collect_branch(project, nodes[-1]).turns] == [None, None, 0.8]


def test_a_clip_that_cannot_be_read_leaves_its_panel_without_one(mixed: tuple[Project, list[str]],
                                                                tmp_path: Path) -> None:
    project, nodes = mixed
    second = collect_branch(project, nodes[-1]).turns[1]
    assert second.clip is not None
    second.clip.write_bytes(b"not a video at all")  # its poster is still there
    sheet = export_branch(project, nodes[-1], tmp_path / "board.pdf").path
    assert _pdf_headings(sheet) == {1: 0.75, 2: None, 3: 0.75}
