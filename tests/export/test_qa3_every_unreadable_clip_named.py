"""A branch whose clip files were damaged (cut short in a copy) names every turn whose clip
can't be read, not only the first: the export stopped at turn 2's clip, and re-rolling it
and exporting again named turn 3, and so on, one try per damaged clip."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import ExportError, export_branch
from studio.export.errors import REMAKE_CLIP_HINT
from studio.storage import Project

from .helpers import build


def _damage(project: Project, node_id: str) -> None:
    """Cut the turn's clip short, before its first whole frame."""
    take = project.tree.selected_take(node_id)
    assert take is not None
    clip = project.resolve(take.clip_path)
    clip.write_bytes(clip.read_bytes()[:600])


@pytest.mark.parametrize("name", ["episode.mp4", "episode.srt", "episode.otio"])
def test_every_damaged_clip_is_named(tmp_path: Path, name: str) -> None:
    story = build(tmp_path, turns=4)
    for node in story.nodes[1:]:
        _damage(story.project, node)
    out = tmp_path / name
    with pytest.raises(ExportError) as raised:
        export_branch(story.project, story.leaf, out)
    message = raised.value.message
    assert message.startswith("The clip of turn 2 "), "the first one keeps its own reason"
    assert message.endswith("; the clips of later turns 3, 4 can't be read either.")
    assert "turn 1" not in message
    assert "Re-roll the turns" in raised.value.hint
    assert not out.exists()


def test_a_lone_damaged_clip_keeps_its_message(tmp_path: Path) -> None:
    story = build(tmp_path, turns=3)
    _damage(story.project, story.nodes[2])
    with pytest.raises(ExportError) as raised:
        export_branch(story.project, story.leaf, tmp_path / "episode.mp4")
    assert raised.value.message.startswith("The clip of turn 3 ")
    assert "later turn" not in raised.value.message
    assert raised.value.hint == REMAKE_CLIP_HINT
