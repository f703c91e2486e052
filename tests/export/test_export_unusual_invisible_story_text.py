"""A dialogue line, narration or shot notes of only invisible characters (zero-width
spaces, joiners, directional marks: what is left of pasted text, or of a field cleared by
hand) passes the story's checks. Exports showed it as a cue with nothing to read, an empty
"<i></i>"-like subtitle and OTIO marker, where the turn's action sentence belongs; a sheet
showed an empty NARRATION heading. Such a field now counts as empty. (The story's checks now
refuse such a dialogue line and store such narration as empty; a project saved before holds them,
so the fixture writes them into the database as an older version did.)"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import opentimelineio as otio
import pytest

from studio.core import AddDialogueLine
from studio.export import export_branch
from studio.export.branch import collect_branch
from studio.export.storyboard import turn_blocks
from studio.storage import Project

from .helpers import Fixture, parse_srt

INVISIBLE = "\u200b\u200d\u2060\u200f"


@pytest.fixture
def invisible(story: Fixture) -> Iterator[Fixture]:
    """Turn 1 says nothing visible; turn 2 narrates nothing visible; turn 3 has a real line
    after an invisible one: stored by an older version, whose checks let them through."""
    first, second, third = story.nodes
    story.project.apply(AddDialogueLine(third, "Qiqi", "Hello there."))
    folder = story.project.path
    story.project.close()
    with sqlite3.connect(folder / "project.db") as db:
        db.execute("UPDATE nodes SET dialogue = ? WHERE id = ?", (json.dumps([["Qiqi", INVISIBLE]]), first))
        db.execute("UPDATE nodes SET narration = ? WHERE id = ?", (f"{INVISIBLE}\n{INVISIBLE}", second))
        db.execute("UPDATE nodes SET dialogue = ? WHERE id = ?",
                   (json.dumps([["Qiqi", "\u200b"], ["Qiqi", "Hello there."]]), third))
    db.close()
    reopened = dataclasses.replace(story, project=Project.open(folder))
    yield reopened
    reopened.project.close()


def test_subtitles_show_the_action_instead_of_an_invisible_line(invisible: Fixture, tmp_path: Path) -> None:
    srt = export_branch(invisible.project, invisible.leaf, tmp_path / "episode.srt").path
    texts = [text for _start, _end, text in parse_srt(srt.read_text(encoding="utf-8"))]
    actions = [turn.action for turn in collect_branch(invisible.project, invisible.leaf).turns]
    assert all(action.startswith("Qiqi") for action in actions)
    assert texts == [actions[0], actions[1], "Qiqi: Hello there."]


def test_timeline_markers_hold_no_invisible_text(invisible: Fixture, tmp_path: Path) -> None:
    path = export_branch(invisible.project, invisible.leaf, tmp_path / "episode.otio").path
    loaded = otio.adapters.read_from_file(str(path))
    markers = [marker for track in loaded.tracks for marker in track.markers]
    kinds = [marker.metadata["kamishibai"]["kind"] for marker in markers]
    assert kinds.count("dialogue") == 1 and "narration" not in kinds
    assert all(marker.name.strip(INVISIBLE + " ") for marker in markers)


def test_sheet_has_no_empty_narration_or_dialogue_block(invisible: Fixture) -> None:
    turns = collect_branch(invisible.project, invisible.leaf).turns
    assert [turn.story.has_text for turn in turns] == [False, False, True]
    assert [line.text for line in turns[2].story.dialogue] == ["Hello there."]
    for turn in turns:
        heard, _seen = turn_blocks(turn)
        assert all(block.text.strip(INVISIBLE + " \n") for block in heard)
