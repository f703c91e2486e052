"""A frame rate too low to keep is refused with a message (QA: ``--fps 0.005`` passed the
options' check, became a rate of 0, and the export ended in "internal error:
ZeroDivisionError: Fraction(0, 0)"); the lowest rate allowed exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import ExportError, ExportOptions, export_branch

from .helpers import Fixture

LOWEST = 0.01
"""A frame every 100 s (studio.export.options.MIN_FPS)."""


@pytest.mark.parametrize("fps", [0.005, 0.0009, 1e-9])
def test_a_frame_rate_below_the_lowest_is_refused_with_a_message(story: Fixture, tmp_path: Path,
                                                                 fps: float) -> None:
    with pytest.raises(ExportError, match="out of range; give at least 0.01"):
        export_branch(story.project, story.leaf, tmp_path / "episode.srt", options=ExportOptions(fps=fps))
    assert [path.name for path in tmp_path.iterdir()] == [story.project.path.name]  # nothing beside it


@pytest.mark.parametrize("name", ["episode.srt", "episode.otio", "episode.mp4"])
def test_the_lowest_frame_rate_exports(story: Fixture, tmp_path: Path, name: str) -> None:
    result = export_branch(story.project, story.leaf, tmp_path / name, options=ExportOptions(fps=LOWEST))
    assert result.frames == len(story.nodes)  # each turn at least one frame
    assert result.duration == pytest.approx(len(story.nodes) / LOWEST)
