"""A storyboard sheet stopped by a turn whose poster and clip are both unreadable (a damaged
copy) says what to do, as a video, SRT or OTIO export stopped by the same clip does: it
named the turn but gave no hint, where every other format says to re-roll it."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import ExportError, export_branch

from .helpers import Fixture


@pytest.mark.parametrize("suffix", ["pdf", "png", "srt"])
def test_a_damaged_take_stops_every_format_with_the_same_hint(story: Fixture, tmp_path: Path, suffix: str) -> None:
    take = story.project.tree.selected_take(story.nodes[1])
    assert take is not None and take.poster_path
    clip = story.project.resolve(take.clip_path)
    clip.write_bytes(clip.read_bytes()[:300])  # cut short: the probe fails
    story.project.resolve(take.poster_path).write_bytes(b"not a picture")
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ExportError) as info:
        export_branch(story.project, story.leaf, out / f"board.{suffix}")
    assert "turn 2" in info.value.message and story.nodes[1] in info.value.message
    assert "re-roll" in (info.value.hint or "").lower()
    assert list(out.iterdir()) == []
