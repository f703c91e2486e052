"""A web address or a long word was cut at exactly 42 columns, mid-word, leaving a line of one
to three letters ("…https://exampl" / "e.com/…/al" / "l") in the SRT, the burned captions and
the OTIO markers. Now a word wider than a line is cut after "/", "_", "." or "-" where it can,
never leaving a line of three letters or fewer where it can be cut elsewhere, and a subtitle
ends inside a word only where the word is wider than a whole subtitle."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio

from studio.core import AddDialogueLine, SetDuration
from studio.export import export_branch
from studio.export.subtitles import wrap_columns

from .helpers import Fixture, parse_srt

ADDRESS = "https://example.com/a/very/long/path/without/spaces/index_of_all_the_episodes_2026.html"
LONG = "Supercalifragilisticexpialidocious_antidisestablishmentarianism_https://example.com/a/b/at/all"


def _lines(entries: list[tuple[float, float, str]]) -> list[str]:
    return [line for _, _, text in entries for line in text.splitlines()]


def test_an_address_is_cut_after_its_slashes_and_full_stops(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(AddDialogueLine(story.nodes[0], "Qiqi", f"See {ADDRESS}"))
    story.project.apply(AddDialogueLine(story.nodes[1], "Qiqi", LONG))
    for node in story.nodes:
        story.project.apply(SetDuration(node, 6.0))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ep.srt").path.read_text("utf-8"))
    lines = _lines(entries)
    assert all(len(line) <= 42 for line in lines), lines
    assert not [line for line in lines if len(line) <= 3], lines
    said = [line for line in lines if not line.startswith("Qiqi gently")]
    # lines joined with a space unless they end in a slash, underscore or full stop give the text
    # back: no line was cut between two letters ("exampl" / "e.com")
    joined = "".join(line if line.endswith(("/", "_", ".")) else line + " " for line in said).strip()
    assert joined == f"Qiqi: See {ADDRESS} Qiqi: {LONG}", said
    markers = otio.adapters.read_from_file(
        str(export_branch(story.project, story.leaf, tmp_path / "ep.otio").path)).tracks[0].markers
    assert [m.name for m in markers] == [text.replace("\n", " ").replace("/ ", "/").replace("_ ", "_")
                                         for _, _, text in entries]


def test_burned_captions_wrap_a_long_word_alike() -> None:
    """Burned captions' lines (wrapped with long words cut, as the SRT's)."""
    lines = wrap_columns(f"Qiqi: See {ADDRESS}", 42, break_long_words=True)
    assert lines == ["Qiqi: See", "https://example.com/a/very/long/path/",
                     "without/spaces/index_of_all_the_episodes_", "2026.html"]
    assert wrap_columns("x" * 43, 42, break_long_words=True) == ["x" * 39, "xxxx"], "no line of 1 to 3"
