"""The note on captions cut for time names only the turns whose text was really cut: where
short turns share a caption and only one turn's long narration is cut, the turns shown whole
beside it are not named ("the caption of turns 1, 2, 3, 4 had more text..." named them all,
and the SRT showed three of them whole). The command line keeps its command hint."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetNarration
from studio.export import export_branch

from .helpers import build, parse_srt

LONG = "Qiqi walks slowly along the harbour wall, counting the boats and waving at the fishermen. " * 3


def _cut_notes(notes: tuple[str, ...]) -> list[str]:
    return [note for note in notes if "more text than can be read" in note]


def test_only_the_turn_whose_narration_is_cut_is_named(tmp_path: Path) -> None:
    story = build(tmp_path, turns=5, frames=[2] * 5)  # a quarter second each: short turns share a caption
    try:
        story.project.apply(SetNarration(story.nodes[2], LONG))
        result = export_branch(story.project, story.leaf, tmp_path / "story.srt")
        [note] = _cut_notes(result.notes)
        subtitles = " ".join(text for _, _, text in parse_srt(result.path.read_text(encoding="utf-8")))
    finally:
        story.project.close()
    assert note.startswith("turn 3's caption has more text than can be read in its time, so it shows only its "
                           "start, ending in '…'")
    assert "--duration" in note  # the command line's hint
    for number in (1, 2, 4, 5):  # shown whole, and not named
        assert f"Qiqi gently waves {number} in the town, by day." in subtitles
        assert f"turn {number}" not in note and f"turns {number}" not in note
    assert "the fishermen. Qiqi walks" not in subtitles.replace("\n", " ")


def test_two_cut_turns_are_named_in_one_sentence(tmp_path: Path) -> None:
    story = build(tmp_path, turns=5, frames=[2] * 5)
    try:
        story.project.apply(SetNarration(story.nodes[1], LONG))
        story.project.apply(SetNarration(story.nodes[3], LONG))
        result = export_branch(story.project, story.leaf, tmp_path / "story.srt")
        [note] = _cut_notes(result.notes)
    finally:
        story.project.close()
    assert note.startswith("turns 2 and 4 have captions with more text than can be read in their time, so each "
                           "shows only its start")
