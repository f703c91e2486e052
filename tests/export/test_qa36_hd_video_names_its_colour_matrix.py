"""A video exported at an HD size shows its colours in players (QA: greens and reds shifted
by up to 26 levels in mpv, VLC and browsers).

The composed frames are RGB; ffmpeg turns them into YUV with the BT.601 matrix and, asked
nothing more, writes no colour tag. A player that finds no tag guesses the matrix from the
frame size: BT.601 below HD, BT.709 from 1280 wide or over 576 high (mpv's and VLC's rule,
and browsers'). An episode exported with ``--size 1280x720`` was decoded with the other
matrix: (40, 200, 60) showed as (27, 174, 54). The stream now says which matrix it holds.

Decoded here as such a player does: with the matrix the stream names, else the one its size
suggests.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from studio.export import ExportOptions, export_branch
from studio.storage.ffmpeg import ffmpeg_exe

from .helpers import FRAMES, Fixture, close_to

HD = (1280, 720)

FFMPEG_MATRICES = {"bt709": "bt709", "smpte170m": "bt601", "bt470bg": "bt601"}
"""A stream's colour matrix as ffmpeg reports it, and the name its scaler takes for it."""


def tagged_matrix(path: Path) -> str | None:
    """The colour matrix the video stream names (ffmpeg's ``yuv420p(tv, smpte170m, ...)``),
    or None when it names none."""
    report = subprocess.run([ffmpeg_exe(), "-hide_banner", "-i", str(path)], capture_output=True, text=True).stderr
    stream = re.search(r"Video: .*", report)
    assert stream, report
    details = re.search(r"yuv\w*\(([^)]*)\)", stream[0])
    if details is None:
        return None
    for part in re.split(r"[,/]\s*", details[1]):
        if part.strip() in FFMPEG_MATRICES:
            return part.strip()
    return None


def decode_as_a_player(path: Path, size: tuple[int, int]) -> np.ndarray:
    """Every frame as RGB, converted with the stream's own matrix, else by the size rule."""
    width, height = size
    guessed = "bt709" if width >= 1280 or height > 576 else "bt601"
    named = tagged_matrix(path)
    matrix = guessed if named is None else FFMPEG_MATRICES[named]
    raw = subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(path), "-vf",
                          f"scale=in_color_matrix={matrix}:in_range=tv,format=rgb24", "-f", "rawvideo", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, height, width, 3)


@pytest.mark.parametrize("suffix", ["mp4", "webm"])
def test_an_hd_export_shows_each_turn_in_its_own_colour(story: Fixture, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"episode.{suffix}"
    export_branch(story.project, story.leaf, out, options=ExportOptions(size=HD))
    frames = decode_as_a_player(out, HD)
    assert len(frames) == FRAMES * len(story.nodes)
    for index, colour in enumerate(story.colours):
        middle = frames[index * FRAMES + FRAMES // 2]
        centre = middle[HD[1] // 2, HD[0] // 2]
        assert close_to(centre, colour, tolerance=8), (index, centre, colour)
    assert tagged_matrix(out) is not None, "the stream names its colour matrix"


def test_a_small_export_keeps_its_colours_too(story: Fixture, tmp_path: Path) -> None:
    """Below HD the guess was right; the tag changes nothing there."""
    out = tmp_path / "small.mp4"
    size = (96, 64)
    export_branch(story.project, story.leaf, out, options=ExportOptions(size=size, stream_copy=False))
    frames = decode_as_a_player(out, size)
    for index, colour in enumerate(story.colours):
        assert close_to(frames[index * FRAMES + FRAMES // 2][32, 48], colour, tolerance=8)
