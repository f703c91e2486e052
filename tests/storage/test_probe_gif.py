"""probe() of a GIF: a whole 168-frame GIF at 24 fps was called "cut short: only 168 of 175
frames" (ffmpeg reports 25 fps for delays of 4, 4 and 5 cs, and duration x 25 fps is 175).
A GIF is judged by its own blocks now, and still refused when it is really cut short."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from studio.storage import ffmpeg


def write_gif(path: Path, frames: int, fps: Fraction) -> Path:
    rng = np.random.default_rng(3)
    pictures = rng.integers(0, 256, (frames, 24, 32, 3), dtype=np.uint8)
    with ffmpeg.FrameEncoder(path, (32, 24), fps, ["-loop", "0", "-f", "gif"]) as encoder:
        encoder.write(pictures)
        encoder.finish()
    return path


@pytest.mark.parametrize(("frames", "fps"), [(168, Fraction(24)), (175, Fraction(24)), (17, Fraction(8)),
                                             (30, Fraction(10)), (45, Fraction(30000, 1001))])
def test_a_whole_gif_probes_with_its_frames_and_rate(tmp_path: Path, frames: int, fps: Fraction) -> None:
    info = ffmpeg.probe(write_gif(tmp_path / "episode.gif", frames, fps))
    assert (info.codec, info.frames) == ("gif", frames)
    assert abs(info.duration - frames / fps) <= 0.011  # delays are whole centiseconds
    if fps.denominator == 1:
        assert info.fps == fps


@pytest.mark.parametrize("kept", [0.5, 0.9, -1])
def test_a_gif_cut_short_is_still_refused(tmp_path: Path, kept: float) -> None:
    path = write_gif(tmp_path / "episode.gif", 168, Fraction(24))
    data = path.read_bytes()
    cut = tmp_path / "cut.gif"
    cut.write_bytes(data[:int(len(data) * kept)] if kept > 0 else data[:kept])  # -1: only the end mark lost
    with pytest.raises(ffmpeg.MediaError, match=r"is cut short: only \d+ whole frames can be read") as raised:
        ffmpeg.probe(cut)
    whole = int(raised.value.message.split("only ")[1].split()[0])
    assert whole == (168 if kept < 0 else pytest.approx(168 * kept, abs=8))


def test_a_gif_structure_is_walked_not_decoded() -> None:
    header = b"GIF89a" + bytes([1, 0, 1, 0, 0x80, 0, 0]) + bytes(6)  # 1 x 1, a two-colour table
    image = bytes([0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0])
    delay = bytes([0x21, 0xF9, 4, 0, 5, 0, 0, 0])
    assert ffmpeg._walk_gif(header + delay + image + image + b";") == (2, True)
    assert ffmpeg._walk_gif(header + delay + image + image[:-1]) == (1, False)
    assert ffmpeg._walk_gif(header + image + b"\x00junk") == (1, False)
    assert ffmpeg._walk_gif(b"GIF89") == (0, False)
