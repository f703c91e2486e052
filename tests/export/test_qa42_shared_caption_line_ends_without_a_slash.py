"""A two-line subtitle that short turns share kept the " /" that joins them at the end of its
first line ("Qiqi walks step 12. /" / "Qiqi: Line number 12, hello."): the line break already
parts them. Now a line that ends where two joined lines meet has no slash, in the SRT and the
burned captions alike (a one-line subtitle, and an OTIO marker's one-line name, keep it)."""

from __future__ import annotations

from pathlib import Path

from studio.core import AddDialogueLine, SetDuration
from studio.export import export_branch
from studio.export.cues import Cue, CueKind, merged
from studio.export.subtitles import subtitle_lines

from .helpers import Fixture, parse_srt


def test_the_first_line_of_a_shared_subtitle_ends_without_a_slash(story: Fixture, tmp_path: Path) -> None:
    for node, seconds in zip(story.nodes, (0.5, 0.5, 3.0), strict=True):
        story.project.apply(SetDuration(node, seconds))
    story.project.apply(AddDialogueLine(story.nodes[1], "Qiqi", "Line number 12, hello."))
    entries = parse_srt(export_branch(story.project, story.leaf, tmp_path / "ep.srt").path.read_text("utf-8"))
    shared = next(text for _, _, text in entries if "Line number 12" in text)
    assert shared.splitlines() == ["Qiqi gently waves 1 in the town, by day.", "Qiqi: Line number 12, hello."]


def test_burned_lines_drop_the_slash_only_at_a_line_end() -> None:
    cue = merged([Cue(CueKind.ACTION, "Qiqi walks step 12."), Cue(CueKind.DIALOGUE, "Line number 12, hello.", "Qiqi")])
    assert subtitle_lines(cue) == ["Qiqi walks step 12.", "Qiqi: Line number 12, hello."]
    short = merged([Cue(CueKind.ACTION, "Qiqi waves."), Cue(CueKind.ACTION, "Yuzu jumps.")])
    assert subtitle_lines(short) == ["Qiqi waves. / Yuzu jumps."]
