"""An OTIO timeline's name and its cards' names are one line of plain text: a title of two
lines (as `--title` allows, one line a row on the card) named the timeline and its title
card with the line break in them, which an editor's one-line name field can't show, and a
directional override typed in a title (U+202E) reached the editor, naming them backwards.
The cards' metadata keep their lines."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio

from studio.export import ExportOptions, export_branch

from .helpers import Fixture

TITLE = "Qiqi's Delivery\n  Episode 1 "
END = "To be\ncontinued \u202eyako\u202c"


def test_names_are_one_line(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.otio"
    export_branch(story.project, story.leaf, out, options=ExportOptions(title=TITLE, end_card=END))
    timeline = otio.adapters.read_from_file(str(out))
    assert timeline.name == "Test Story", "the project's name; the title is the card's"
    items = list(timeline.tracks[0])
    title, end = items[0], items[-1]
    assert title.name == "Title card: Qiqi's Delivery Episode 1"
    assert end.name == "End card: To be continued yako"
    assert title.metadata["kamishibai"]["text"] == "Qiqi's Delivery\n  Episode 1", "the card's lines are kept"
    assert end.metadata["kamishibai"]["text"] == "To be\ncontinued  yako"
    names = [timeline.name, *(item.name for item in items)]
    assert not any(char in name for name in names for char in "\n\u202e\u202c")


def test_without_a_title_the_timeline_has_the_projects_name(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.otio"
    export_branch(story.project, story.leaf, out, options=ExportOptions(title="   \n "))
    timeline = otio.adapters.read_from_file(str(out))
    assert timeline.name == "Test Story"
    assert "card" not in next(iter(timeline.tracks[0])).metadata["kamishibai"], "no title card"
