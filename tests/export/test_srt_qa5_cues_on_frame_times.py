"""SRT cue times are the times of the frames where the cues change, rounded *down* to the
millisecond (QA: rounded to the nearest, about half the cue boundaries of a 30 fps or 29.97 fps
export fell after their frame's time, e.g. 2.367 s for frame 71 at 2.36667 s, and a player,
which shows a cue on the frames from its start on, changed the subtitle a frame after the
burned captions and the timeline's markers)."""

from __future__ import annotations

import re
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from studio.export import ExportOptions, export_branch
from studio.export.subtitles import srt_timestamp
from studio.storage.media import ffmpeg_exe

from .helpers import Fixture, parse_srt


def _millis(stamp: str) -> int:
    match = re.fullmatch(r"(\d+):(\d+):(\d+),(\d+)", stamp)
    assert match, stamp
    hours, minutes, seconds, millis = (int(part) for part in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis


@pytest.mark.parametrize("fps", [Fraction(8), Fraction(24000, 1001), Fraction(25), Fraction(30000, 1001),
                                 Fraction(30), Fraction(60), Fraction(25, 2), Fraction(240)])
def test_a_frames_time_lies_after_the_frame_before_and_not_after_the_frame(fps: Fraction) -> None:
    for frame in range(0, 3000):
        at = Fraction(_millis(srt_timestamp(frame, fps)), 1000)
        assert at <= frame / fps, f"frame {frame} at {fps} fps: {at} s is after the frame"
        assert frame == 0 or at > (frame - 1) / fps, f"frame {frame} at {fps} fps: {at} s is on the frame before"


def _has_libass() -> bool:
    filters = subprocess.run([ffmpeg_exe(), "-hide_banner", "-filters"], capture_output=True, text=True).stdout
    return re.search(r"^\s*\S+\s+subtitles\s", filters, re.MULTILINE) is not None


@pytest.mark.skipif(not _has_libass(), reason="this ffmpeg has no subtitles filter (libass)")
def test_a_player_changes_the_subtitle_on_the_frames_the_cues_start(story: Fixture, tmp_path: Path) -> None:
    # 6 clip frames at 8 fps are 22 frames at 30 fps: the cues change at frames 22, 44 and 66,
    # and 44 / 30 s (1.46667) rounded to the nearest millisecond was 1.467, after frame 44
    out = tmp_path / "episode.srt"
    export_branch(story.project, story.leaf, out, options=ExportOptions(fps=30))
    assert len(parse_srt(out.read_text(encoding="utf-8"))) == 3
    width, height, frames = 320, 120, 75
    # libass draws the subtitles on a blank 30 fps picture, as a player does on the video
    rendered = subprocess.run(
        [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
         f"color=black:s={width}x{height}:r=30:d={frames / 30}", "-vf", f"subtitles={out.name}",
         "-frames:v", str(frames), "-f", "rawvideo", "-pix_fmt", "gray", "-"],
        cwd=tmp_path, capture_output=True, check=True).stdout
    pictures = np.frombuffer(rendered, dtype=np.uint8).reshape(-1, height, width).astype(int)
    assert len(pictures) == frames
    assert pictures[0].max() > 100, "the first cue shows on the first frame"
    changes = [index for index in range(1, frames) if np.abs(pictures[index] - pictures[index - 1]).max() > 60]
    assert changes == [22, 44, 66]
