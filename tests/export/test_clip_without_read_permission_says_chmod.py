"""A clip this user may not read (mode 000) stopped the export with ffmpeg's words, "not a
readable video: Error opening input files: Permission denied", under a hint to re-roll the
turn: a re-roll makes again a clip that is there. The export now says the file can't be read
for want of permission and names the `chmod` that lets it be read; run as given, the export
works."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.user_limits import as_a_user

from .helpers import Fixture

REPO = Path(__file__).resolve().parents[2]


def _as_a_user(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user bound by file permissions: root without the powers
    that let it read any file (as tests/export/test_errors.py drops them)."""
    command = as_a_user([sys.executable, "-m", "studio", *args])
    return subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=REPO)


def _hint_commands(stderr: str) -> list[list[str]]:
    hint = next(line for line in stderr.splitlines() if line.startswith("  hint: "))
    return [shlex.split(part) for part in hint.split("`")[1::2]]


@pytest.mark.parametrize("suffix", ["mp4", "srt", "png"])
def test_an_unreadable_clip_names_chmod_not_reroll(story: Fixture, tmp_path: Path, suffix: str) -> None:
    tree = story.project.tree
    take = tree.selected_take(story.nodes[1])
    assert take is not None
    clip = story.project.resolve(take.clip_path)
    if suffix == "png" and take.poster_path:  # a sheet reads the clip only where the poster is missing
        story.project.resolve(take.poster_path).unlink()
    project = str(story.project.path)
    story.project.close()
    out = tmp_path / "out"
    out.mkdir()
    clip.chmod(0)
    try:
        done = _as_a_user("export", project, "--leaf", story.leaf, "--out", str(out / f"e.{suffix}"), "-q")
        assert done.returncode == 2, done.stderr
        assert f"turn 2 (node {story.nodes[1]}" in done.stderr
        assert f"you have no permission to read {clip}" in done.stderr, done.stderr
        assert "not a readable video" not in done.stderr and "reroll" not in done.stderr, done.stderr
        assert "Re-roll" not in done.stderr and "internal error" not in done.stderr
        assert list(out.iterdir()) == []
        commands = _hint_commands(done.stderr)
        assert commands == [["chmod", "u+r", str(clip)]], done.stderr
        for command in commands:
            subprocess.run(command, check=True)
        again = _as_a_user("export", project, "--leaf", story.leaf, "--out", str(out / f"e.{suffix}"), "-q")
        assert again.returncode == 0, again.stderr
    finally:
        clip.chmod(0o644)


def test_several_unreadable_clips_are_named_in_one_message(story: Fixture, tmp_path: Path) -> None:
    clips = []
    for node in story.nodes[1:]:
        take = story.project.tree.selected_take(node)
        assert take is not None
        clips.append(story.project.resolve(take.clip_path))
    project = str(story.project.path)
    story.project.close()
    for clip in clips:
        clip.chmod(0)
    try:
        done = _as_a_user("export", project, "--leaf", story.leaf, "--out", str(tmp_path / "e.mp4"), "-q")
        assert done.returncode == 2, done.stderr
        assert "turn 2" in done.stderr and "nor the clip of later turn 3" in done.stderr, done.stderr
        assert _hint_commands(done.stderr) == [["chmod", "u+r", *map(str, clips)]], done.stderr
    finally:
        for clip in clips:
            clip.chmod(0o644)
