"""The one ffmpeg module: real mp4s written, probed and decoded back."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from studio.core.progress import Cancelled
from studio.storage import ffmpeg, media


def _frames(count: int = 9, height: int = 48, width: int = 64) -> np.ndarray:
    """Smooth gradients that move: H.264 keeps them close to the original."""
    y, x = np.mgrid[0:height, 0:width]
    frames = [np.stack([(x * 4 + t * 8) % 256, (y * 5) % 256, np.full_like(x, 40 + t * 10)], axis=-1)
              for t in range(count)]
    return np.asarray(frames, dtype=np.uint8)


def test_an_encoded_clip_probes_and_decodes_back_to_its_frames(tmp_path: Path) -> None:
    path = tmp_path / "clip.mp4"
    source = _frames()
    media.write_clip(path, source, 8.0)
    info = ffmpeg.probe(path)
    assert (info.codec, info.pix_fmt, info.size, info.fps, info.frames) == ("h264", "yuv420p", (64, 48), Fraction(8), 9)
    assert info.duration == pytest.approx(9 / 8)
    frames, fps = media.read_clip(path)
    assert fps == 8.0 and frames.shape == source.shape
    assert np.abs(frames.astype(int) - source.astype(int)).mean() < 3.0
    decoded = list(ffmpeg.decode_frames(path, info.size))
    assert np.array_equal(np.stack(decoded), frames)  # one decoder: the same pixels either way


def test_odd_sizes_are_padded_and_other_sizes_letterboxed(tmp_path: Path) -> None:
    path = tmp_path / "odd.mp4"
    media.write_clip(path, _frames(3, 47, 63), 12.0)
    info = ffmpeg.probe(path)
    assert info.size == (64, 48) and info.frames == 3 and info.fps == 12
    boxed = next(ffmpeg.decode_frames(path, (128, 48), info.size))
    assert boxed.shape == (48, 128, 3)
    assert boxed[:, :20].max() < 20 and boxed[:, 40:80].mean() > 40  # black bars left, picture in the middle


def test_frames_streamed_one_by_one_make_the_same_clip(tmp_path: Path) -> None:
    path = tmp_path / "streamed.mp4"
    source = _frames(5)
    with ffmpeg.FrameEncoder(path, (64, 48), Fraction(24000, 1001), ffmpeg.h264_args(18), title="t") as encoder:
        for frame in source:
            encoder.write(frame)
        encoder.finish()
    assert encoder.frames == 5
    info = ffmpeg.probe(path)
    assert info.frames == 5 and info.fps == Fraction(24000, 1001)


def test_unreadable_and_missing_files_are_refused_clearly(tmp_path: Path) -> None:
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video at all" * 100)
    with pytest.raises(media.MediaError, match="not a readable video"):
        ffmpeg.probe(junk)
    with pytest.raises(media.MediaError, match="does not exist"):
        media.read_clip(tmp_path / "missing.mp4")
    good = tmp_path / "good.mp4"
    media.write_clip(good, _frames(24, 96, 128), 8.0)
    cut = tmp_path / "cut.mp4"
    data = good.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(media.MediaError):
        ffmpeg.probe(cut)


@pytest.mark.parametrize("kept", [0.2, 0.5, 0.8])
def test_a_clip_cut_anywhere_after_its_header_is_called_cut_short(tmp_path: Path, kept: float) -> None:
    """Even a cut before the first whole frame: the header still says frames should be there,
    so the user hears that the file is damaged, not that the clip is empty."""
    good = tmp_path / "good.mp4"
    media.write_clip(good, _frames(16, 96, 128), 8.0)
    data = good.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: int(len(data) * kept)])
    with pytest.raises(media.MediaError, match=r"is cut short: only \d+ of 16 frames"):
        ffmpeg.probe(cut)


def test_a_failed_encode_names_the_file_and_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "clip.mp4"
    with pytest.raises(media.MediaError, match="clip.mp4"):
        media.write_clip(target, _frames(2), -5.0)  # a negative frame rate: ffmpeg refuses
    assert list(tmp_path.iterdir()) == []


def test_a_run_is_killed_when_cancelled(tmp_path: Path) -> None:
    source = tmp_path / "long.mp4"
    media.write_clip(source, _frames(80), 8.0)
    seen: list[float] = []
    calls = iter(range(1000))
    with pytest.raises(Cancelled):
        ffmpeg.run_with_progress(["-i", str(source), "-f", "null", "-"], tmp_path / "out", 10.0, seen.append,
                                 lambda: next(calls) >= 1)
