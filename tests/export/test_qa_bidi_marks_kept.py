"""Right-to-left marks (U+200E, U+200F) are allowed in the story fields and names (right-to-left
text needs them to place punctuation and numbers) and must reach the subtitles and the
timeline as written (QA: each became a space, so a dialogue line "Hi\u200f!" read "Hi !" in
the SRT, "5\u200e%" read "5 %", and a narration opened with a mark to make it right to left
lost it). The embeddings, overrides and isolates, which can show text reordered, still do not
reach a player or an editor."""

from __future__ import annotations

from pathlib import Path

import opentimelineio as otio

from studio.core import AddDialogueLine, SetDuration, SetNarration
from studio.export import export_branch

from .helpers import Fixture, parse_srt

RLM, LRM, RLO, PDF = "\u200f", "\u200e", "\u202e", "\u202c"
NARRATION = f"{RLM}Hello שלום 5{LRM}% done"


def _marked_turn(story: Fixture) -> None:
    first = story.nodes[0]
    story.project.apply(SetNarration(first, NARRATION))
    story.project.apply(AddDialogueLine(first, "Qiqi", f"Hi{RLM}!"))
    story.project.apply(AddDialogueLine(first, "Yuzu", f"Look: {RLO}gnp.exe{PDF} here"))
    story.project.apply(SetDuration(first, 3.0))  # time for a subtitle of 5/6 s each


def test_srt_keeps_the_marks_as_written(story: Fixture, tmp_path: Path) -> None:
    _marked_turn(story)
    srt = export_branch(story.project, story.leaf, tmp_path / "episode.srt").path
    texts = [text for _, _, text in parse_srt(srt.read_text(encoding="utf-8"))][:3]
    assert texts[0] == f"<i>{NARRATION}</i>"
    assert texts[1] == f"Qiqi: Hi{RLM}!"
    assert RLO not in texts[2] and PDF not in texts[2] and "gnp.exe" in texts[2], "an override never reaches it"


def test_otio_markers_keep_the_marks_as_written(story: Fixture, tmp_path: Path) -> None:
    _marked_turn(story)
    result = export_branch(story.project, story.leaf, tmp_path / "episode.otio")
    timeline = otio.adapters.read_from_file(str(result.path))
    names = [marker.name for marker in timeline.tracks[0].markers][:3]
    assert names[:2] == [NARRATION, f"Qiqi: Hi{RLM}!"]
    assert RLO not in names[2] and PDF not in names[2]
    clip = next(iter(timeline.find_clips()))
    assert clip.metadata["kamishibai"]["narration"] == NARRATION
