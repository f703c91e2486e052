"""A video's title in its metadata (what players show in the title bar or a playlist).

An episode joined by stream copy had no title at all, while the same episode re-encoded had
the project's name; and a title card of several lines gave a title of several lines (one
line break per card line), which players show cut at the first line or as a broken list
entry. The metadata title is now always there and always one line."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from studio.export import ExportOptions, export_branch
from studio.storage.media import ffmpeg_exe

from .helpers import Fixture


def metadata_title(path: Path) -> str | None:
    """The container's title as ffmpeg reads it back (its ffmetadata dump writes a line
    break inside a value as a backslash at the end of a line)."""
    dump = subprocess.run([ffmpeg_exe(), "-hide_banner", "-v", "error", "-i", str(path), "-f", "ffmetadata", "-"],
                          capture_output=True, check=True).stdout.decode("utf-8")
    lines = dump.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("title="):
            value = line[len("title="):]
            while value.endswith("\\") and index + 1 < len(lines):
                index += 1
                value = value[:-1] + "\n" + lines[index]
            return value
    return None


def test_a_joined_episode_has_the_project_name_as_its_title(story: Fixture, tmp_path: Path) -> None:
    made = export_branch(story.project, story.leaf, tmp_path / "joined.mp4")
    assert made.used_stream_copy
    encoded = export_branch(story.project, story.leaf, tmp_path / "encoded.mp4",
                            options=ExportOptions(stream_copy=False))
    assert not encoded.used_stream_copy
    assert metadata_title(tmp_path / "joined.mp4") == "Test Story"
    assert metadata_title(tmp_path / "encoded.mp4") == "Test Story"


@pytest.mark.parametrize("suffix", ["mp4", "webm"])
def test_a_title_card_of_several_lines_is_one_metadata_line(story: Fixture, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"episode.{suffix}"
    export_branch(story.project, story.leaf, out, options=ExportOptions(title="Episode 1\n  The  Bakery\n"))
    assert metadata_title(out) == "Episode 1 The Bakery"
