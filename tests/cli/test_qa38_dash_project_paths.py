"""A project folder whose name starts with ``-`` works from the command line: its clips are
made (ffmpeg was given "-dash.kamishibai/..." as an argument and read it as an option), and
the commands the CLI prints name it as ``./-NAME`` (typed as printed, argparse read
"-samp.kamishibai" as an option). QA: `kamishibai play ./-dash.kamishibai TEXT` always
failed, and sample's "try again" hint could not be typed as printed."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from studio.storage.ffmpeg import path_arg, probe


def _kamishibai(folder: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The CLI run in ``folder`` as a user runs it there."""
    return subprocess.run([sys.executable, "-m", "studio", *args], cwd=folder, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})


def test_play_in_a_project_whose_name_starts_with_a_dash(tmp_path: Path) -> None:
    made = _kamishibai(tmp_path, "new", "--", "-dash")
    assert made.returncode == 0, made.stderr
    played = _kamishibai(tmp_path, "play", "./-dash.kamishibai", "Qiqi runs")
    assert played.returncode == 0, played.stderr
    assert "Option not found" not in played.stderr
    clip = re.search(r"^\s*clip\s+(\S.*\.mp4)$", played.stdout, re.MULTILINE)
    assert clip is not None, played.stdout
    info = probe(Path(clip[1]))  # a real clip, read back
    assert info.frames > 0
    assert Path(clip[1]).is_relative_to(tmp_path / "-dash.kamishibai")


def test_every_relative_path_reaches_ffmpeg_as_a_path() -> None:
    assert path_arg(Path("-dash.kamishibai/media/a.mp4")) == "./-dash.kamishibai/media/a.mp4"
    assert path_arg("take:1.mp4") == "./take:1.mp4"  # not the protocol "take"
    assert path_arg(Path("/abs/-x.mp4")) == "/abs/-x.mp4"


def test_sample_hint_names_a_dash_folder_so_it_can_be_typed(tmp_path: Path) -> None:
    """The sample's turns fail (an ffmpeg that can't run); the hint printed must work typed as is."""
    broken = tmp_path / "broken-ffmpeg"
    broken.write_text("#!/bin/sh\necho 'this ffmpeg is broken' >&2\nexit 1\n", encoding="utf-8")
    broken.chmod(0o755)
    done = _kamishibai(tmp_path, "sample", "-q", "--", "-samp", env={"IMAGEIO_FFMPEG_EXE": str(broken)})
    assert done.returncode == 1, done.stderr
    hint = re.search(r"`(kamishibai fill [^`]*)`", done.stderr)
    assert hint is not None, done.stderr
    words = shlex.split(hint[1])
    assert words[2] == "./-samp.kamishibai", hint[1]
    # typed as printed, with a working ffmpeg, it generates the turns
    again = _kamishibai(tmp_path, *words[1:], "-q")
    assert again.returncode == 0, again.stderr
    assert "unrecognized arguments" not in again.stderr
    clips = sorted((tmp_path / "-samp.kamishibai").rglob("*.mp4"))
    assert clips and all(probe(clip).frames > 0 for clip in clips)


def test_sample_takes_quiet(tmp_path: Path) -> None:
    done = _kamishibai(tmp_path, "sample", "story", "-q")
    assert done.returncode == 0, done.stderr
    assert "unrecognized arguments" not in done.stderr
    assert "job/s" not in done.stderr and "generating" not in done.stderr, done.stderr
    assert done.stdout.strip().endswith("story.kamishibai")
    assert len(list((tmp_path / "story.kamishibai").rglob("*.mp4"))) == 8
