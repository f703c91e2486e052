"""The export's summary said "2.12 s" of an episode whose files end at 2.125 s (17 frames at
8 fps): it rounded to two decimals. Now it says the seconds to the millisecond, as the SRT
and the timeline hold them, without trailing zeros."""

from __future__ import annotations

from pathlib import Path

from studio.core import SetDuration
from studio.export import export_branch

from .helpers import Fixture, parse_srt


def test_the_summary_gives_the_srts_last_time(story: Fixture, tmp_path: Path) -> None:
    story.project.apply(SetDuration(story.nodes[0], 0.625))  # 5 + 6 + 6 frames at 8 fps: 2.125 s
    result = export_branch(story.project, story.leaf, tmp_path / "ep.srt")
    last = parse_srt(result.path.read_text(encoding="utf-8"))[-1][1]
    assert last == 2.125
    assert ", 2.125 s, 17 frames;" in result.summary(), result.summary()
    whole = export_branch(story.project, story.nodes[1], tmp_path / "two.srt")
    assert ", 1.375 s, 11 frames;" in whole.summary(), whole.summary()
