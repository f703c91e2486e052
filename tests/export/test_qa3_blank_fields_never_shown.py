"""A turn whose instruction leaves every field blank ("Character: ; Motion: ; Background: .",
a form filled in later or never) and that has no dialogue nor narration showed that text,
field names and all, as its subtitle, OTIO marker and sheet ACTION. It now reads as its
acting character's name, as a turn naming only its character does."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio
import pytest

from studio.export import export_branch
from studio.export.branch import collect_branch
from studio.export.storyboard import turn_blocks

from .helpers import COLOURS, Fixture, add_turn, parse_srt

BLANK = ("Character: ; Motion: ; Background: .", "Character:;Motion:")


@pytest.fixture
def blank(story: Fixture) -> Fixture:
    """The story (Qiqi's three turns) with two turns of blank fields after them."""
    parent = story.leaf
    for index, text in enumerate(BLANK):
        parent = add_turn(story.project, parent, text, COLOURS[index])
        story.nodes.append(parent)
    return story


def test_blank_fields_read_as_the_acting_character(blank: Fixture) -> None:
    turns = collect_branch(blank.project, blank.leaf).turns[-2:]
    assert [turn.character for turn in turns] == ["Qiqi", "Qiqi"]
    assert [turn.action for turn in turns] == ["Qiqi.", "Qiqi."]
    for turn in turns:
        _heard, seen = turn_blocks(turn)
        assert seen[0].text == "Qiqi."


def test_subtitles_and_markers_hold_no_field_names(blank: Fixture, tmp_path: Path) -> None:
    srt = tmp_path / "episode.srt"
    export_branch(blank.project, blank.leaf, srt)
    texts = [text for _start, _end, text in parse_srt(srt.read_text(encoding="utf-8"))]
    assert texts[-2:] == ["Qiqi.", "Qiqi."]
    timeline = tmp_path / "episode.otio"
    export_branch(blank.project, blank.leaf, timeline)
    loaded = otio.adapters.read_from_file(str(timeline))
    names = [marker.name for track in loaded.tracks for marker in track.markers]
    assert names[-2:] == ["Qiqi.", "Qiqi."]
    assert not any("Character:" in name or "Motion:" in name for name in names)


def test_an_instruction_of_only_punctuation_is_shown_as_it_is(story: Fixture) -> None:
    leaf = add_turn(story.project, story.leaf, "...", COLOURS[0])
    turn = collect_branch(story.project, leaf).turns[-1]
    assert turn.action == "..."
