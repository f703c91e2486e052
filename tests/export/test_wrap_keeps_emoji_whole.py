"""Wrapping never cuts a character as a reader sees it in two (QA: a Japanese line with
``コーヒー☕️。`` wrapped on a title card with the cup on one line and its variation selector
starting the next, drawn as a dotted circle; SRT lines broke between 👍 and its skin tone and
inside 👨‍👩‍👧, so players showed a lone skin-tone swatch and a broken family)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from studio.core import AddDialogueLine, SetDuration
from studio.export import export_branch
from studio.export.cues import Cue, CueKind
from studio.export.drawing import wrap_text
from studio.export.subtitles import srt_cue_text

from .helpers import Fixture

SEQUENCES = {
    "skin tone": "\U0001f44d\U0001f3fd",
    "family": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "variation selector": "\u2615\ufe0f",
    "combining dakuten": "\u304b\u3099",
    "flag": "\U0001f1ef\U0001f1f5",
    "keycap": "1\ufe0f\u20e3",
}


def _dangling(line: str) -> bool:
    """A line that starts with what belongs to the character before it, or ends in a joiner
    or half a flag."""
    first, last = line[0], line[-1]
    starts_badly = (unicodedata.category(first) in ("Mn", "Me") or first == "\u200d"
                    or 0x1F3FB <= ord(first) <= 0x1F3FF)
    odd_flags = sum(0x1F1E6 <= ord(char) <= 0x1F1FF for char in line) % 2 == 1
    return starts_badly or last == "\u200d" or odd_flags


def _columns(text: str) -> float:
    """A measure in the manner of a font: what joins the character before it takes no room."""
    return sum(0 if unicodedata.category(char) in ("Mn", "Me", "Cf") or 0x1F3FB <= ord(char) <= 0x1F3FF
               else 1 for char in text)


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_drawn_lines_break_between_characters_not_inside_one(sequence: str) -> None:
    for before in range(1, 14):
        for after in ("\u3002", "\u3044"):  # 。 may not start a line, so it takes the one before along
            text = "\u3042" * before + sequence + after + "\u3044" * 6
            lines = wrap_text(text, _columns, 8)
            assert "".join(lines) == text
            assert not any(_dangling(line) for line in lines), (before, lines)


@pytest.mark.parametrize("sequence", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_srt_lines_break_between_characters_not_inside_one(sequence: str) -> None:
    for before in range(14, 24):
        for after in ("\u3002", "\u3044"):
            text = "\u3042" * before + sequence + after + "\u3044" * 20
            lines = srt_cue_text(Cue(CueKind.DIALOGUE, text)).split("\n")
            assert len(lines) > 1 and "".join(lines) == text
            assert not any(_dangling(line) for line in lines), (before, lines)


def test_an_exported_srt_keeps_each_emoji_whole(story: Fixture, tmp_path: Path) -> None:
    line = "\u3042" * 20 + "\U0001f44d\U0001f3fd" + "\u3044" * 10 + "\u2615\ufe0f\u3002" + "\u3044" * 5
    story.project.apply(AddDialogueLine(story.nodes[0], "", line))
    story.project.apply(SetDuration(story.nodes[0], 12.0))  # time to show all of it
    out = tmp_path / "episode.srt"
    export_branch(story.project, story.leaf, out)
    # longer than two Japanese lines: consecutive subtitles, read in order
    blocks = out.read_text(encoding="utf-8").split("\n\n")
    subtitles = [block.splitlines()[2:] for block in blocks if not block.splitlines()[2].startswith("Qiqi")]
    assert len(subtitles) > 1
    lines = [text for subtitle in subtitles for text in subtitle]
    assert "".join(lines) == line
    assert not any(_dangling(text) for text in lines), lines
