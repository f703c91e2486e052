"""An Arabic or Hebrew line of dialogue said by a speaker with a Latin name reads right to
left in the SRT subtitles and the OTIO markers, as in the burned captions.

The cue "Yuzu: مرحبا يا صديقتي" was written as plain text: a player or an editor takes a
line's direction from its first strong letter, the name's "Y", and laid the Arabic line out as
English. Each such line now begins with a RIGHT-TO-LEFT MARK; cues all in one direction are
written as they were. The files are read back as a player would: the SRT parsed, the OTIO
file read by OpenTimelineIO, and each line's direction found by its first strong letter
(Unicode Bidirectional Algorithm, rules P2 and P3)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch

from .helpers import Fixture, parse_srt

RLM = "\u200f"
ARABIC = "مرحبا يا صديقتي"
HEBREW = "שלום חבר שלי"
LONG_ARABIC = " ".join(["مرحبا يا صديقتي الجميلة، كيف حالك اليوم في المدينة؟"] * 3)
"""Longer than one SRT cue of two lines: it is cut into several cues."""
LATIN = "See you tomorrow!"
LATIN_NARRATION = ("Qiqi walks along the river and waves to everyone she meets on the way to the old "
                   "bridge, where Yuzu waits.")


def first_strong(line: str) -> str | None:
    """The bidi class (L, R or AL) of the line's first strong character, marks included."""
    return next((kind for kind in map(unicodedata.bidirectional, line) if kind in ("L", "R", "AL")), None)


def reads_right_to_left(line: str) -> bool:
    return first_strong(line) in ("R", "AL")


@pytest.fixture
def said(story: Fixture) -> Fixture:
    first, second, third = story.nodes
    story.project.apply(AddDialogueLine(first, "Yuzu", ARABIC))
    story.project.apply(AddDialogueLine(first, "Qiqi", LATIN))
    story.project.apply(SetDuration(first, 2.0))  # time for a subtitle of 5/6 s each
    story.project.apply(AddDialogueLine(second, "נועה", HEBREW))
    story.project.apply(AddDialogueLine(second, "Yuzu", LONG_ARABIC))
    story.project.apply(SetDuration(second, 5.0))  # time for all of the long line's subtitles
    story.project.apply(SetNarration(third, LATIN_NARRATION))
    story.project.apply(SetDuration(third, 2.0))
    return story


def test_srt_cues_of_a_right_to_left_line_read_right_to_left(said: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "episode.srt"
    export_branch(said.project, said.leaf, out)
    cues = [text for _start, _end, text in parse_srt(out.read_text(encoding="utf-8"))]
    assert f"{RLM}Yuzu: {ARABIC}" in cues
    assert f"Qiqi: {LATIN}" in cues  # all Latin: as it was
    assert f"נועה: {HEBREW}" in cues  # all Hebrew: as it was, it reads right to left already
    long_cues = [text for text in cues if any(word in text for word in ("الجميلة", "المدينة"))]
    assert len(long_cues) > 1 and long_cues[0].startswith(RLM + "Yuzu:")
    for text in long_cues:  # every line of every cue the long line was cut into
        for line in text.split("\n"):
            assert reads_right_to_left(line), repr(line)
    assert "".join(" ".join(long_cues).split()).replace(RLM, "") == "".join(f"Yuzu: {LONG_ARABIC}".split())
    narration = [text for text in cues if text.startswith("<i>")]
    assert narration and RLM not in "".join(narration) and "\u200e" not in "".join(narration)


def test_otio_markers_of_a_right_to_left_line_read_right_to_left(said: Fixture, tmp_path: Path) -> None:
    otio = pytest.importorskip("opentimelineio")
    out = tmp_path / "episode.otio"
    export_branch(said.project, said.leaf, out)
    timeline = otio.adapters.read_from_file(str(out))
    markers = {marker.metadata["kamishibai"]["text"]: marker for marker in timeline.tracks[0].markers}
    assert markers[ARABIC].name == f"{RLM}Yuzu: {ARABIC}"
    # the long line is a marker for each of its subtitles, as the SRT cuts it: each reads right to left
    long_markers = [marker.name for text, marker in markers.items() if "المدينة" in text or "الجميلة" in text]
    assert len(long_markers) > 1 and long_markers[0].startswith(RLM + "Yuzu:")
    assert all(reads_right_to_left(name) for name in long_markers), long_markers
    assert markers[ARABIC].metadata["kamishibai"]["speaker"] == "Yuzu"  # the data as it is
    assert markers[LATIN].name == f"Qiqi: {LATIN}"
    assert markers[HEBREW].name == f"נועה: {HEBREW}"
    narration = [marker.name for marker in timeline.tracks[0].markers
                 if marker.metadata["kamishibai"]["kind"] == "narration"]
    assert " ".join(narration) == LATIN_NARRATION  # as the SRT cuts it, each part as it is
