"""A subtitle that joins an English line and an Arabic or Hebrew one (a turn too short for a
subtitle each) shows each on a line of its own, read in its own direction, in the SRT, the
burned-in captions and the OTIO markers: the joined text took the first line's direction for
both, and "Yuzu: مرحبا" after "Qiqi: I'm late!" read left to right, its name at the left."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine
from studio.export import ExportOptions, export_branch
from studio.export.bidi_text import LRM, RLM, starts_right_to_left
from studio.export.cues import Cue, CueKind, merged
from studio.export.drawing import caption_layout
from studio.export.options import CaptionMode
from studio.export.subtitles import shared_pieces, srt_cue_text, subtitle_lines

from .helpers import Fixture, container_duration, parse_srt

ARABIC = "مرحبا يا قيقي"
HEBREW = "שלום קיקי"


def _two_lines(story: Fixture, first: tuple[str, str], second: tuple[str, str]) -> None:
    node = story.nodes[0]  # 0.75 s: its two lines share one subtitle
    story.project.apply(AddDialogueLine(node, *first))
    story.project.apply(AddDialogueLine(node, *second))


def _shared_subtitle(story: Fixture, tmp_path: Path) -> str:
    result = export_branch(story.project, story.leaf, tmp_path / "story.srt")
    return parse_srt(result.path.read_text(encoding="utf-8"))[0][2]


def test_an_arabic_line_after_an_english_one_reads_right_to_left_in_the_srt(story: Fixture, tmp_path: Path) -> None:
    _two_lines(story, ("Qiqi", "I'm late!"), ("Yuzu", ARABIC))
    text = _shared_subtitle(story, tmp_path)
    english, arabic = text.split("\n")
    assert english == "Qiqi: I'm late!"  # the line break parts the two: no "/" left at a line's end
    assert arabic == f"{RLM}Yuzu: {ARABIC}"
    assert not starts_right_to_left(english) and starts_right_to_left(arabic)


def test_an_english_line_after_a_hebrew_one_reads_left_to_right_in_the_srt(story: Fixture, tmp_path: Path) -> None:
    _two_lines(story, ("Yuzu", HEBREW), ("Qiqi", "Hi!"))
    text = _shared_subtitle(story, tmp_path)
    hebrew, english = text.split("\n")
    assert hebrew == f"{RLM}Yuzu: {HEBREW}"
    assert english == f"{LRM}Qiqi: Hi!"
    assert starts_right_to_left(hebrew) and not starts_right_to_left(english)


def test_lines_of_one_direction_still_share_a_line(story: Fixture, tmp_path: Path) -> None:
    _two_lines(story, ("Qiqi", "Hi!"), ("Yuzu", "Bye!"))
    assert _shared_subtitle(story, tmp_path) == "Qiqi: Hi! / Yuzu: Bye!"


def test_the_burned_caption_draws_each_line_in_its_own_direction(story: Fixture, tmp_path: Path) -> None:
    """The lines a burned caption draws are the subtitle's (as :mod:`studio.export.compose`
    lays them out); the video with them is made and read back."""
    _two_lines(story, ("Qiqi", "I'm late!"), ("Yuzu", ARABIC))
    result = export_branch(story.project, story.leaf, tmp_path / "story.mp4",
                           options=ExportOptions(captions=CaptionMode.BURN))
    assert container_duration(result.path) == pytest.approx(result.duration, abs=0.1)
    shared = shared_pieces([Cue(CueKind.DIALOGUE, "I'm late!", "Qiqi"), Cue(CueKind.DIALOGUE, ARABIC, "Yuzu")])
    assert len(shared) == 1
    _face, lines, cut = caption_layout((640, 360), "\n".join(subtitle_lines(shared[0])), rtl=shared[0].reads_rtl)
    assert not cut
    assert [starts_right_to_left(line) for line in lines] == [False, True]
    assert lines[1] == f"{RLM}Yuzu: {ARABIC}"


def test_the_otio_marker_names_each_line_in_its_own_direction(story: Fixture, tmp_path: Path) -> None:
    _two_lines(story, ("Qiqi", "I'm late!"), ("Yuzu", ARABIC))
    result = export_branch(story.project, story.leaf, tmp_path / "story.otio")
    timeline = otio.adapters.read_from_file(str(result.path))
    name = timeline.tracks[0].markers[0].name
    assert name.split("\n") == ["Qiqi: I'm late!", f"{RLM}Yuzu: {ARABIC}"]
    assert timeline.tracks[0].markers[0].metadata["kamishibai"]["kind"] == "dialogue"


@pytest.mark.parametrize("first_rtl", [False, True])
def test_a_long_part_of_the_other_direction_keeps_its_direction_on_every_line(first_rtl: bool) -> None:
    english = Cue(CueKind.DIALOGUE, "Hi!", "Qiqi")
    arabic = Cue(CueKind.DIALOGUE, " ".join([ARABIC] * 3), "Yuzu")
    cue = merged([arabic, english] if first_rtl else [english, arabic])
    lines = srt_cue_text(cue).split("\n")
    assert len(lines) == len(subtitle_lines(cue)) >= 3
    arabic_lines = [line for line in lines if "قيقي" in line or "مرحبا" in line]
    assert arabic_lines and all(starts_right_to_left(line) for line in arabic_lines)
    assert all(not starts_right_to_left(line) for line in lines if "Qiqi" in line or "Hi!" in line)
