"""The OTIO timeline pointed by absolute file:// URL into the project's own media folder, so
a copy of the export folder on another machine had every clip offline; the title and end
cards were empty gaps, the timeline took the title's name, and a held turn was a source range
past its clip's end made valid only by a freeze-frame effect, which most importers drop.

Now the timeline's media sit beside it (``NAME_media/``), referenced by relative URL: each
turn's clip, each held last frame as a still clip of its own, and the cards as the video draws
them; the timeline is named for the project."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import opentimelineio as otio

from studio.core import SetDuration
from studio.export import ExportOptions, export_branch

from .helpers import COLOURS, Fixture, close_to, decode


def _file_of(clip: otio.schema.Clip, folder: Path) -> Path:
    url = urlparse(clip.media_reference.target_url)
    assert not url.scheme and not Path(unquote(url.path)).is_absolute(), clip.media_reference.target_url
    return folder / unquote(url.path)


def test_a_copied_export_folder_finds_every_clip_card_and_held_frame(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SetDuration(story.nodes[1], 2.0))  # a 0.75 s clip held for 2 s
    exports = tmp_path / "exports"
    exports.mkdir()
    options = ExportOptions(title="Episode 1", end_card="The End", crossfade=0.25)
    result = export_branch(story.project, story.leaf, exports / "ep.otio", options=options)
    assert result.paths == (exports / "ep.otio", exports / "ep_media")
    moved = tmp_path / "elsewhere"
    shutil.copytree(exports, moved)
    shutil.rmtree(exports)
    shutil.rmtree(story.project.path / "media")  # the project's own media are out of reach

    timeline = otio.adapters.read_from_file(str(moved / "ep.otio"))
    assert timeline.name == "Test Story", "named for the project, not the title card"
    items = [item for item in timeline.tracks[0] if isinstance(item, otio.schema.Clip)]
    assert not any(isinstance(item, otio.schema.Gap) for item in timeline.tracks[0])
    assert [item.name for item in items] == ["Title card: Episode 1", "Turn 1", "Turn 2", "Turn 2 (hold)",
                                             "Turn 3", "End card: The End"]
    for item in items:
        assert not item.effects, f"{item.name} needs no time effect"
        file = _file_of(item, moved)
        assert file.is_file() and file.parent == moved / "ep_media", file
        frames = decode(file)
        available = item.media_reference.available_range
        assert len(frames) == available.duration.value, item.name
        assert item.source_range.end_time_exclusive() <= available.end_time_exclusive(), item.name
    hold = _file_of(items[3], moved)
    assert all(close_to(frame[32, 48], COLOURS[1]) for frame in decode(hold)), "turn 2's last frame, held"
    title = decode(_file_of(items[0], moved))[0]
    assert np.mean(np.all(title > 200, axis=2)) > 0.001, "the card's words are drawn"
    assert items[3].source_range.duration.to_seconds() + items[2].source_range.duration.to_seconds() <= 2.0


def test_a_forced_export_replaces_the_media_folder_whole(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "ep.otio"
    export_branch(story.project, story.leaf, out, options=ExportOptions(title="Episode 1"))
    assert (tmp_path / "ep_media" / "title-card.mp4").is_file()
    export_branch(story.project, story.leaf, out)
    assert not (tmp_path / "ep_media" / "title-card.mp4").exists(), "no earlier export's card left"
    assert sorted(p.name for p in (tmp_path / "ep_media").iterdir()) == sorted(
        f"take-t{node}.mp4" for node in story.nodes)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ep.otio", "ep_media", "story.kamishibai"], \
        "no work folder left"
