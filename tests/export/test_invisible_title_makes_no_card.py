"""A title or end card typed as only invisible marks (a right-to-left mark, a zero-width
space: easy to paste) makes no card: it made a blank two-second card at the start of the
episode. A title with a letter beside such a mark still makes one."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core.text import shows_something
from studio.export import ExportOptions, export_branch

from .helpers import Fixture, decode


@pytest.mark.parametrize(("text", "shows"), [
    ("\u200f", False), (" \u200b\u200e ", False), ("\u2060\ufeff", False), ("", False), ("\t\n", False),
    ("\u200fسلام", True), ("Ep. 1", True), ("🌸", True), ("\u3000あ", True),
])
def test_what_shows_something(text: str, shows: bool) -> None:
    assert shows_something(text) is shows


def test_an_invisible_title_and_end_card_make_no_cards(story: Fixture, tmp_path: Path) -> None:
    plain = export_branch(story.project, story.leaf, tmp_path / "plain.mp4")
    invisible = export_branch(story.project, story.leaf, tmp_path / "marks.mp4",
                              options=ExportOptions(title="\u200f", end_card=" \u200b "))
    assert invisible.frames == plain.frames
    assert len(decode(tmp_path / "marks.mp4")) == plain.frames
    titled = export_branch(story.project, story.leaf, tmp_path / "titled.mp4",
                           options=ExportOptions(title="\u200fEp. 1"))
    assert titled.frames > plain.frames
