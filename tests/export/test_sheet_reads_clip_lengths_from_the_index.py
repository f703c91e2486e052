"""The sheet reads each clip's length from its index, as ffmpeg's probe would give it.

A sheet shows every panel's duration, its clip's own length where none is set; probing each
clip with ffmpeg made a 60-turn PDF take 2.3 times as long. A clip as the studio writes it is
read from its index (a few KB); the numbers must be the probe's, at every rate a take is made.
"""

from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from studio.core.state import CharacterState, StateDeltas
from studio.export.branch import Turn
from studio.export.branch import indexed_clip_length as clip_length
from studio.storage.ffmpeg import ffmpeg_exe, probe
from studio.storage.media import write_clip


def _turn(clip: Path) -> Turn:
    return Turn(number=1, node_id="n1", take_id="t1", instruction="", state=CharacterState(), deltas=StateDeltas(),
                clip=clip, poster=None)


@pytest.mark.parametrize(("fps", "count"), [(8.0, 17), (12.0, 5), (12.5, 9), (24000 / 1001, 7), (30.0, 3), (60.0, 11)])
def test_the_index_gives_what_the_probe_gives(tmp_path: Path, fps: float, count: int) -> None:
    frames = np.random.default_rng(count).integers(0, 255, (count, 64, 96, 3), dtype=np.uint8)
    clip = tmp_path / "clip.mp4"
    write_clip(clip, frames, fps)
    info = probe(clip)
    assert clip_length(_turn(clip)) == (info.frames, info.fps) == (count, info.fps)


def test_other_clips_are_left_to_the_probe(tmp_path: Path) -> None:
    clip = tmp_path / "clip.mp4"
    write_clip(clip, np.zeros((6, 64, 96, 3), dtype=np.uint8), 8.0)
    with_sound = tmp_path / "sound.mp4"  # two tracks: not laid out as the studio writes clips
    subprocess.run([ffmpeg_exe(), "-v", "error", "-i", str(clip), "-f", "lavfi", "-i", "anullsrc=d=1", "-c:v", "copy",
                    "-shortest", str(with_sound)], check=True)
    assert clip_length(_turn(with_sound)) is None
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(clip.read_bytes()[:-200])
    assert clip_length(_turn(cut)) is None
    assert clip_length(_turn(tmp_path / "missing.mp4")) is None
    assert clip_length(_turn(clip)) == (6, Fraction(8))
