"""A turn whose instruction names no motion, place or free text ("Character: Yuzu",
"Character: Qiqi; Motion: ; Background: .") and that has no dialogue nor narration: its
subtitle, burned caption, OTIO marker and sheet showed the instruction as written, field
names and all, where the README promises "a sentence made from its instruction ..., never
the field syntax". It now reads as its acting character's name."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio
import pytest

from studio.export import export_branch
from studio.export.branch import collect_branch
from studio.export.storyboard import turn_blocks

from .helpers import COLOURS, Fixture, add_turn, parse_srt

ONLY_FIELDS = ("Character: Yuzu", "Character: Qiqi; Motion: ; Background: .")


@pytest.fixture
def bare(story: Fixture) -> Fixture:
    """The story with the two field-only turns after its three."""
    parent = story.leaf
    for index, text in enumerate(ONLY_FIELDS):
        parent = add_turn(story.project, parent, text, COLOURS[index])
        story.nodes.append(parent)
    return story


def test_such_turns_read_as_their_character(bare: Fixture) -> None:
    turns = collect_branch(bare.project, bare.leaf).turns
    assert [turn.action for turn in turns[-2:]] == ["Yuzu.", "Qiqi."]
    for turn in turns[-2:]:
        _heard, seen = turn_blocks(turn)
        assert all("Character:" not in block.text for block in seen)


def test_their_subtitles_and_markers_hold_no_field_names(bare: Fixture, tmp_path: Path) -> None:
    srt = tmp_path / "episode.srt"
    export_branch(bare.project, bare.leaf, srt)
    texts = [text for _start, _end, text in parse_srt(srt.read_text(encoding="utf-8"))]
    assert texts[-2:] == ["Yuzu.", "Qiqi."]
    timeline = tmp_path / "episode.otio"
    export_branch(bare.project, bare.leaf, timeline)
    loaded = otio.adapters.read_from_file(str(timeline))
    names = [marker.name for track in loaded.tracks for marker in track.markers]
    names += [marker.name for clip in loaded.find_clips() for marker in clip.markers]
    assert names and not any("Character:" in name or "Motion:" in name for name in names)
