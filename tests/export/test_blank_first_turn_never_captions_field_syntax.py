"""A first turn whose instruction leaves every field blank ("Character: ; Motion: ;
Background: .") in a story with no character yet, and no dialogue nor narration: there is
no one to name, so its sentence is empty, and its subtitle showed the instruction as
written, field names and all. It now has no caption (the export's notes say so and what to
do), and the sheet's ACTION says what the instruction lacks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.storage import Project

from .helpers import COLOURS, add_turn, parse_srt

BLANK = "Character: ; Motion: ; Background: ."
SECOND = "Character: Qiqi; Motion: wave; Background: day town."


@pytest.fixture
def blank_first(tmp_path: Path) -> Iterator[tuple[Project, str]]:
    project = Project.create(tmp_path / "blank", name="Blank Start")
    first = add_turn(project, project.tree.root_id, BLANK, COLOURS[0])
    second = add_turn(project, first, SECOND, COLOURS[1])
    yield project, second
    project.close()


def test_the_blank_turn_has_no_sentence_to_show(blank_first: tuple[Project, str]) -> None:
    project, leaf = blank_first
    first = collect_branch(project, leaf).turns[0]
    assert first.character == "" and first.action == ""  # what the export is given: nothing to say


def test_its_subtitle_is_left_out_and_the_notes_say_so(blank_first: tuple[Project, str], tmp_path: Path) -> None:
    project, leaf = blank_first
    out = tmp_path / "out folder ü" / "episode.srt"
    out.parent.mkdir()
    result = export_branch(project, leaf, out)
    text = out.read_text(encoding="utf-8")
    assert "Character:" not in text and "Motion:" not in text and "Background:" not in text
    cues = parse_srt(text)
    assert [cue for _start, _end, cue in cues] == ["Qiqi waves in the town, by day."]
    assert any(note.startswith("Turn 1 has no caption") for note in result.notes), result.notes


def test_a_video_with_captions_names_it_too(blank_first: tuple[Project, str], tmp_path: Path) -> None:
    project, leaf = blank_first
    result = export_branch(project, leaf, tmp_path / "episode.mp4", options=ExportOptions(captions=CaptionMode.SRT))
    srt = (tmp_path / "episode.srt").read_text(encoding="utf-8")
    assert "Character:" not in srt and "Qiqi waves" in srt
    assert any(note.startswith("Turn 1 has no caption") for note in result.notes), result.notes
    plain = export_branch(project, leaf, tmp_path / "plain.mp4")
    assert not any("no caption" in note for note in plain.notes)  # no captions asked: nothing to say


def test_the_sheet_says_what_the_instruction_lacks(blank_first: tuple[Project, str], tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    project, leaf = blank_first
    out = tmp_path / "board.pdf"
    export_branch(project, leaf, out, options=ExportOptions(panels_per_page=3))
    text = " ".join(pypdf.PdfReader(str(out)).pages[0].extract_text().split())
    assert "Character:" not in text and "Motion:" not in text
    assert "(the instruction names no character, motion or place)" in text
