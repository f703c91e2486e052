"""Media files of a take: the clip (H.264 mp4), its poster (PNG) and the representation
(.safetensors). Writers are atomic; readers check what they read.

ffmpeg comes from the ``imageio-ffmpeg`` wheel, so this works offline.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from studio.core.errors import StudioError
from studio.storage.atomic import atomic_path
from studio.storage.errors import describe_os_error

CLIP_NAME = "clip.mp4"
POSTER_NAME = "poster.png"
REPRESENTATION_NAME = "representation.safetensors"
# imageio-ffmpeg starts ffmpeg with preexec_fn=os.setpgrp unless told not to; a
# preexec_fn forces a full fork() that holds the GIL while a large process is copied,
# stalling every other thread (the GUI's event loop among them). Without it, Python uses
# vfork. ffmpeg then shares our process group, so Ctrl+C in a terminal stops it too.
os.environ.setdefault("IMAGEIO_FFMPEG_NO_PREVENT_SIGINT", "1")

CLIP_CRF = 17
"""Visually lossless H.264 (the design asks for CRF 18 or better)."""
MAX_REPRESENTATION_BYTES = 256 * 1024 * 1024
"""Largest representation file read (AnimeGamer's is 226 x 1920 float32: 1.7 MB)."""
MAX_CLIP_FRAME_PIXELS = 3840 * 2160
MAX_CLIP_DECODED_BYTES = 2 * 1024**3
"""A clip (from a bundle, say) is decoded only if its frames fit these limits."""


class MediaError(StudioError):
    """A media file that can't be written or read."""


def ffmpeg_exe() -> str:
    import imageio_ffmpeg

    return str(imageio_ffmpeg.get_ffmpeg_exe())


def _even(frames: np.ndarray) -> np.ndarray:
    """yuv420p needs even sizes: pad the last row/column by repeating the edge."""
    _, h, w, _ = frames.shape
    pad_h, pad_w = h % 2, w % 2
    if pad_h or pad_w:
        frames = np.pad(frames, ((0, 0), (0, pad_h), (0, pad_w), (0, 0)), mode="edge")
    return frames


def encode_mp4(path: Path, frames: np.ndarray, fps: float, crf: int = CLIP_CRF, preset: str = "veryfast",
               threads: int = 1) -> None:
    """Encode uint8 T x H x W x 3 frames as H.264/yuv420p mp4 at ``path`` (not atomic).

    ffmpeg is started without a ``preexec_fn`` (its own process group instead), so Python
    can spawn it with vfork: a plain fork() of a large GUI process holds the GIL for tens
    of milliseconds, which the window would feel as a stall.
    """
    frames = _even(np.ascontiguousarray(frames, dtype=np.uint8))
    _, h, w, _ = frames.shape
    command = [
        ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{w}x{h}", "-r", f"{fps:g}", "-i", "-",
        "-an", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", str(crf), "-preset", preset,
        "-threads", str(threads), "-movflags", "+faststart", str(path),
    ]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, process_group=0)
    try:
        _, errors = process.communicate(frames.tobytes())
    except BaseException:
        process.kill()
        process.wait()
        raise
    if process.returncode != 0:
        text = errors.decode("utf-8", "replace")
        if process.returncode == -signal.SIGXFSZ or "File too large" in text:
            raise OSError(errno.EFBIG, "File too large", str(path))
        if "No space left on device" in text or "Disk quota exceeded" in text:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        message = text.strip().splitlines()
        raise MediaError(f"ffmpeg could not encode {path.name}: {message[-1] if message else process.returncode}")


@contextlib.contextmanager
def writing_media(path: Path) -> Iterator[Path]:
    """:func:`atomic_path`, with a full disk or a read-only folder told of ``path`` (the
    file the user knows), never of its hidden temporary file."""
    try:
        with atomic_path(path) as tmp:
            try:
                yield tmp
            except MediaError as error:  # ffmpeg names the file it was given
                raise MediaError(error.message.replace(tmp.name, path.name), error.hint) from None
    except OSError as error:
        raise describe_os_error(error, path.parent, f"write {path.name}") from None


def write_clip(path: Path, frames: np.ndarray, fps: float) -> None:
    with writing_media(path) as tmp:
        encode_mp4(tmp, frames, fps)


def write_poster(path: Path, frame: np.ndarray) -> None:
    from PIL import Image

    with writing_media(path) as tmp:
        Image.fromarray(np.ascontiguousarray(frame, dtype=np.uint8)).save(tmp, format="PNG")


def write_representation(path: Path, representation: np.ndarray, metadata: Mapping[str, Any] | None = None) -> None:
    from safetensors.numpy import save

    meta = {"format": "kamishibai-representation"}
    if metadata:
        meta["metadata"] = json.dumps(dict(metadata), ensure_ascii=False, sort_keys=True)
    data = save({"representation": np.ascontiguousarray(representation, dtype=np.float32)}, metadata=meta)
    with writing_media(path) as tmp:
        tmp.write_bytes(data)


def read_representation(path: Path) -> tuple[np.ndarray, dict[str, Any]]:
    """The representation and the metadata written with it (engine, space, seed...)."""
    from safetensors import SafetensorError, safe_open

    try:
        size = path.stat().st_size
    except OSError as error:
        raise MediaError(f"Can't read the representation {path}: {error.strerror or error}.") from None
    if size > MAX_REPRESENTATION_BYTES:
        raise MediaError(f"The representation {path} is {size:,} bytes; the limit is {MAX_REPRESENTATION_BYTES:,}.")
    try:
        with safe_open(str(path), framework="numpy") as handle:
            array = handle.get_tensor("representation")
            header = handle.metadata() or {}
    except (OSError, SafetensorError, KeyError, ValueError) as error:
        raise MediaError(f"Can't read the representation {path}: {error}.") from None
    try:
        metadata = json.loads(header.get("metadata", "{}"))
    except ValueError:
        metadata = {}
    return array, metadata if isinstance(metadata, dict) else {}


@dataclass(frozen=True)
class VideoInfo:
    width: int
    height: int
    fps: float
    frames: int
    duration: float
    codec: str


def probe(path: Path) -> VideoInfo:
    """Width, height, fps, frame count, duration and codec, read with ffmpeg."""
    import imageio_ffmpeg

    if not path.is_file():
        raise MediaError(f"{path} does not exist.")
    try:
        frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(path))
        reader = imageio_ffmpeg.read_frames(str(path))
        meta = next(reader)
        reader.close()
    except (RuntimeError, StopIteration, OSError) as error:
        raise MediaError(f"{path} is not a readable video: {error}.") from None
    width, height = meta["size"]
    codec = str(meta.get("codec", ""))
    return VideoInfo(int(width), int(height), float(meta["fps"]), int(frames), float(seconds), codec)


def read_clip(path: Path) -> tuple[np.ndarray, float]:
    """Decode a video to uint8 T x H x W x 3 frames and its fps."""
    import imageio_ffmpeg

    if not path.is_file():
        raise MediaError(f"{path} does not exist.")
    frames: list[np.ndarray] = []
    try:
        reader = imageio_ffmpeg.read_frames(str(path), pix_fmt="rgb24")
        try:
            meta = next(reader)
            width, height = meta["size"]
            if width * height > MAX_CLIP_FRAME_PIXELS:
                raise MediaError(f"{path} is {width} x {height} pixels; clips are limited to "
                                 f"{MAX_CLIP_FRAME_PIXELS / 1e6:.1f} megapixels.")
            limit = max(1, MAX_CLIP_DECODED_BYTES // (width * height * 3))
            for buf in reader:
                if len(frames) >= limit:
                    raise MediaError(f"{path} holds more than {limit:,} frames of {width} x {height}; "
                                     f"a clip decodes to at most {MAX_CLIP_DECODED_BYTES / 1024**3:.0f} GiB.")
                frames.append(np.frombuffer(buf, dtype=np.uint8).reshape(height, width, 3))
        finally:
            reader.close()
    except (RuntimeError, StopIteration, OSError, ValueError) as error:
        raise MediaError(f"{path} is not a readable video: {error}.") from None
    if not frames:
        raise MediaError(f"{path} holds no frames.")
    return np.stack(frames), float(meta["fps"])


def run_ffmpeg(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", *args],
                          capture_output=True, text=True, check=False)
