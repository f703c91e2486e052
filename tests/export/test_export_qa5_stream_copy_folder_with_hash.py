"""Joining clips by stream copy into a folder whose name holds ``#`` or ``?``.

ffmpeg resolves the names in its concat list against the list's own path read as a URL:
in "Episode #2" the ``#`` began a fragment, the clips were looked for in the folder above,
and the export stopped with "ffmpeg could not write episode.mp4: Error opening input
files: No such file or directory." (a re-encoded export into the same folder worked)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.export import export_branch

from .helpers import Fixture, close_to, decode, video_facts


@pytest.mark.parametrize("folder_name", ["Episode #2", "what? cut", "a#b?c"])
def test_stream_copy_into_a_folder_with_hash_or_question_mark(story: Fixture, tmp_path: Path,
                                                              folder_name: str) -> None:
    folder = tmp_path / folder_name
    folder.mkdir()
    out = folder / "episode.mp4"
    result = export_branch(story.project, story.leaf, out)
    assert result.used_stream_copy
    facts = video_facts(out)
    assert facts.frames == sum(story.frames) and (facts.width, facts.height) == (96, 64)
    frames = decode(out)
    starts = [sum(story.frames[:index]) for index in range(len(story.frames))]
    for start, colour in zip(starts, story.colours, strict=True):
        assert close_to(frames[start][32, 48], colour), f"turn starting at frame {start} shows its own clip"
    assert [path.name for path in folder.iterdir()] == ["episode.mp4"], "no work folder is left"


def test_the_command_joins_one_turn_into_such_a_folder(story: Fixture, tmp_path: Path) -> None:
    folder = tmp_path / "Take #3"
    folder.mkdir()
    story.project.close()  # the command opens the project itself
    done = subprocess.run([sys.executable, "-m", "studio", "export", str(story.project.path),
                           "--leaf", story.nodes[0], "--out", str(folder / "one turn.mp4"), "-q"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "stream copy" in done.stdout, done.stdout
    assert video_facts(folder / "one turn.mp4").frames == story.frames[0]
