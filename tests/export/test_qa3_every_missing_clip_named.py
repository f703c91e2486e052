"""A branch whose clip files are missing names every turn that lost its clip, not only the
first: a project copied without its media folder refused to export naming turn 1 alone;
re-rolling it and exporting again named turn 2, and so on, one try per turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import ExportError, export_branch
from studio.export.errors import REMAKE_CLIP_HINT
from studio.storage import Project

from .helpers import add_turn, build


def _lose_clip(project: Project, node_id: str) -> None:
    take = project.tree.selected_take(node_id)
    assert take is not None
    project.resolve(take.clip_path).unlink()


def test_every_lost_clip_is_named(tmp_path: Path) -> None:
    story = build(tmp_path, turns=4)
    for node in story.nodes[1:]:
        _lose_clip(story.project, node)
    out = tmp_path / "episode.srt"
    with pytest.raises(ExportError) as raised:
        export_branch(story.project, story.leaf, out)
    message = raised.value.message
    assert "the clip of turn 2" in message, "the first one keeps its own reason"
    assert "the clips of later turns 3, 4 are missing too" in message
    assert raised.value.hint != REMAKE_CLIP_HINT, "not 'the turn': several turns need their clips"
    assert "media folder" in raised.value.hint
    assert not out.exists()


def test_lost_clips_and_turns_without_takes_are_both_told(tmp_path: Path) -> None:
    story = build(tmp_path, turns=3)
    _lose_clip(story.project, story.nodes[0])
    _lose_clip(story.project, story.nodes[2])
    leaf = add_turn(story.project, story.leaf, "Motion: sleep.", (0, 0, 0), with_take=False)
    with pytest.raises(ExportError) as raised:
        export_branch(story.project, leaf, tmp_path / "episode.mp4")  # a sheet is made without lost clips
    message, hint = raised.value.message, raised.value.hint
    assert "the clip of turn 1" in message
    assert "1 later turn of the branch has no finished take chosen either" in message
    assert "the clip of later turn 3 is missing too" in message
    assert "turn 2" not in message, "turn 2's clip is there"
    assert "Generate every turn" in hint and "media folder" in hint


def test_a_lone_lost_clip_keeps_its_message(tmp_path: Path) -> None:
    story = build(tmp_path, turns=3)
    _lose_clip(story.project, story.nodes[1])
    with pytest.raises(ExportError) as raised:
        export_branch(story.project, story.leaf, tmp_path / "episode.mp4")
    assert "later turn" not in raised.value.message
    assert raised.value.hint == REMAKE_CLIP_HINT
