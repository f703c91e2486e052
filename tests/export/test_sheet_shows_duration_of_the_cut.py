"""A storyboard sheet shows each turn's duration as the video gives it, in whole frames.

A turn set to 1.3 s lasts 10 frames in a video at 8 fps, 1.25 s; the sheet said "1.3 s", so a
reader timing the cut by the sheet was off by a fraction of a second per turn. The sheets'
headings are read back from the PDF (pypdf) and from the layout a PNG sheet draws, and
compared with the frames of the video exported from the same branch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.core import SetDuration
from studio.export import export_branch
from studio.export.branch import collect_branch
from studio.export.options import ExportOptions
from studio.export.sheet import poster_image, sheet_layout
from studio.export.sheet_png import PngPage
from studio.export.storyboard import lay_out_sheet

from .helpers import FPS, Fixture, video_facts

SET = {0: 1.3, 1: 0.3}
"""Durations (turn index: seconds) that are no whole number of frames at the fixture's 8 fps."""
HEADING = re.compile(r"Turn (\d+) · Qiqi · ([\d.]+) s")


def _set(story: Fixture) -> None:
    for index, seconds in SET.items():
        story.project.apply(SetDuration(story.nodes[index], seconds))


def _headings(text: str) -> dict[int, float]:
    return {int(number): float(seconds) for number, seconds in HEADING.findall(text)}


def test_a_pdf_sheet_shows_the_frames_the_video_gives_each_turn(story: Fixture, tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    _set(story)
    sheet, video = tmp_path / "board.pdf", tmp_path / "episode.mp4"
    export_branch(story.project, story.leaf, sheet)
    export_branch(story.project, story.leaf, video)
    shown = _headings("\n".join(page.extract_text() for page in pypdf.PdfReader(str(sheet)).pages))
    assert set(shown) == {1, 2, 3}  # turn 3 has no duration set: its clip's own length
    for index, seconds in SET.items():
        assert shown[index + 1] != seconds  # not as set ...
        assert shown[index + 1] * FPS == round(shown[index + 1] * FPS)  # ... but whole frames
    assert shown[3] == story.frames[2] / FPS  # turn 3 lasts its clip
    facts = video_facts(video)
    assert facts.frames == round(sum(shown.values()) * FPS)
    assert facts.duration == pytest.approx(sum(shown.values()), abs=0.01)


def test_a_png_sheet_heading_shows_the_seconds_of_the_cut(story: Fixture) -> None:
    from studio.export.sheet import sheet_turns  # the turns a PNG sheet is laid out with

    _set(story)
    branch = collect_branch(story.project, story.leaf)
    turns = sheet_turns(branch)
    layout = sheet_layout(ExportOptions(), poster_image(turns[0]))
    pages = lay_out_sheet(layout, turns, PngPage(layout).width)
    shown = _headings("\n".join(line.text for page in pages for panel in page for line in panel.lines))
    assert shown == {1: 1.25, 2: 0.25, 3: 0.75}  # turn 3: its clip's 6 frames at 8 fps
