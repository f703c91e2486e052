"""An SRT or OTIO export of a turn with more caption text than its time can show says so in
its notes, as a video export does (it names the turn and how to show all of it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.commands import SetDuration, SetNarration
from studio.export import export_branch

from .helpers import Fixture

LONG = "Qiqi walks slowly along the harbour wall, counting the boats and waving at the fishermen. " * 12


@pytest.mark.parametrize("name", ["story.srt", "story.otio"])
def test_the_export_notes_name_the_shortened_turn(story: Fixture, tmp_path: Path, name: str) -> None:
    second = story.nodes[1]
    story.project.apply(SetNarration(second, LONG))
    story.project.apply(SetDuration(second, 2.0))
    result = export_branch(story.project, story.leaf, tmp_path / name)
    [note] = [note for note in result.notes if "more text than can be read" in note]
    assert "turn 2" in note and "--duration" in note


def test_no_such_note_when_every_caption_fits(story: Fixture, tmp_path: Path) -> None:
    result = export_branch(story.project, story.leaf, tmp_path / "story.srt")
    assert not any("more text than can be read" in note for note in result.notes)
