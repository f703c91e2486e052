"""How much memory encoding a video takes, checked before it starts.

A frame is composed in Python and piped to ffmpeg, which holds some frames of its own
(x264's lookahead and frame threads, VP9's lag, the GIF encoder's palette statistics). Each
format streams: what it holds does not grow with the number of frames, only with the
frame's size, so the estimate is bytes per output pixel. The figures were measured on noise
(the worst case for the encoders and for the GIF palette's colour statistics) at 1024 to
4096 pixels square, and rounded up; x264's grows with its threads, so with the CPUs.

An export that would not fit is refused up front with the size named, rather than
killed by the kernel halfway with ffmpeg's "stopped by signal SIGKILL".
"""

from __future__ import annotations

import math
import os

from studio.export.errors import ExportError
from studio.export.options import ExportFormat

MIB = 1 << 20
GIB = 1 << 30

FRAME_BYTES_PER_PIXEL = 3
"""An RGB frame as the export composes it and pipes it to ffmpeg."""

PREFETCH_BYTES = 256 * MIB
"""What the clips decoded ahead of the encoder may hold (:class:`~studio.export.prefetch.Prefetcher`)."""
PREFETCH_FRAMES = (2, 48)
"""The fewest and most frames decoded ahead."""

COMPOSE_BYTES_PER_PIXEL = 40
"""Python's own working frames: the clip's frame, a dissolve's two frames in 16 bits and their
blend, a caption or the state panel laid over a copy, the frame being written (about 13
frames of 3 bytes a pixel), and the ffmpeg that decodes and scales each clip."""

ENCODER_BYTES_PER_PIXEL: dict[ExportFormat, int] = {
    ExportFormat.MP4: 100,   # libx264 veryfast, plus X264_BYTES_PER_THREAD a thread
    ExportFormat.WEBM: 260,  # libvpx-vp9: 25 frames of lag, row threads (measured 140-230)
    ExportFormat.GIF: 130,   # palettegen's colour statistics, then paletteuse (measured 95-125)
}
"""What ffmpeg holds while it encodes, a pixel."""

X264_BYTES_PER_THREAD = 8
"""libx264 runs 1.5 threads a CPU, each with frames of its own: measured 110-150 bytes a pixel
with 3 threads, 250-310 with 24."""
X264_MAX_THREADS = 64


def encoder_bytes_per_pixel(fmt: ExportFormat) -> int:
    if fmt is not ExportFormat.MP4:
        return ENCODER_BYTES_PER_PIXEL[fmt]
    try:
        cpus = len(os.sched_getaffinity(0))  # what x264 counts
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    threads = min(X264_MAX_THREADS, math.ceil(1.5 * cpus))
    return ENCODER_BYTES_PER_PIXEL[fmt] + X264_BYTES_PER_THREAD * threads


BASE_BYTES = 300 * MIB
"""Python, numpy, Pillow and the fonts, and each ffmpeg's own start."""

SHARE_OF_AVAILABLE = 0.8
"""The part of the memory the system reports available that an export may plan to use: the
rest is for the window, the page cache and the estimate's error."""

FALLBACK_LIMIT = 4 * GIB
"""The limit where the available memory can't be read (no /proc/meminfo)."""

MEMINFO = "/proc/meminfo"


def prefetch_depth(size: tuple[int, int]) -> int:
    """How many frames of ``size`` to decode ahead: :data:`PREFETCH_BYTES` worth, within
    :data:`PREFETCH_FRAMES` (48 frames of 8192 x 8192 would be 9.6 GB)."""
    width, height = size
    fewest, most = PREFETCH_FRAMES
    return max(fewest, min(most, PREFETCH_BYTES // max(1, width * height * FRAME_BYTES_PER_PIXEL)))


def estimate_bytes(fmt: ExportFormat, size: tuple[int, int]) -> int:
    """The memory encoding a ``fmt`` video of ``size`` (width, height) needs, about."""
    width, height = size
    pixels = width * height
    ahead = prefetch_depth(size) * pixels * FRAME_BYTES_PER_PIXEL
    return BASE_BYTES + ahead + pixels * (COMPOSE_BYTES_PER_PIXEL + encoder_bytes_per_pixel(fmt))


def available_bytes(meminfo: str | None = None) -> int | None:
    """MemAvailable from ``meminfo`` (default :data:`MEMINFO`, Linux's), or None where it can't
    be read."""
    try:
        with open(meminfo or MEMINFO, encoding="ascii") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key == "MemAvailable":
                    number, _, unit = value.strip().partition(" ")
                    return int(number) * (1024 if unit.strip().lower() == "kb" else 1)
    except (OSError, ValueError):
        return None
    return None


def memory_limit() -> tuple[int, str]:
    """How many bytes an export may plan to use, and where that comes from (for a message)."""
    available = available_bytes()
    if available is None:
        return FALLBACK_LIMIT, f"the {_size(FALLBACK_LIMIT)} an export may use where free memory can't be read"
    return int(available * SHARE_OF_AVAILABLE), f"this machine has {_size(available)} of memory available"


def _size(count: float) -> str:
    return f"{count / GIB:.1f} GB" if count >= GIB else f"{round(count / MIB)} MB"


def fitting_size(fmt: ExportFormat, size: tuple[int, int], limit: int) -> tuple[int, int] | None:
    """The largest size of ``size``'s shape (even sides, for every format) that fits ``limit``,
    or None when not even 16 pixels high would."""
    width, height = size
    low, high = 0.0, 1.0
    for _ in range(40):
        middle = (low + high) / 2
        if estimate_bytes(fmt, _scaled(size, middle)) <= limit:
            low = middle
        else:
            high = middle
    fitted = _scaled(size, low)
    if min(fitted) < 16 or estimate_bytes(fmt, fitted) > limit:
        return None
    return fitted if fitted != (width, height) else None


def _scaled(size: tuple[int, int], factor: float) -> tuple[int, int]:
    width, height = size
    return max(2, int(width * factor) // 2 * 2), max(2, int(height * factor) // 2 * 2)


def check_memory(fmt: ExportFormat, size: tuple[int, int], asked: bool = True) -> None:
    """Refuse a ``fmt`` video of ``size`` that would need more memory than this machine can
    give (``asked``: the size was asked for, rather than taken from the clips)."""
    if fmt not in ENCODER_BYTES_PER_PIXEL:
        return
    needed = estimate_bytes(fmt, size)
    limit, why = memory_limit()
    if needed <= limit:
        return
    width, height = size
    what = "" if asked else " (the clips' own size)"
    smaller = fitting_size(fmt, size, limit)
    if smaller is not None:
        hint = f"Export at {smaller[0]}x{smaller[1]} or smaller (--size {smaller[0]}x{smaller[1]})"
    else:
        hint = "Export at a smaller size (--size)"
    if fmt is not ExportFormat.MP4 and estimate_bytes(ExportFormat.MP4, size) <= limit:
        hint += f", or as mp4, which needs less memory at {width}x{height}."
    elif fmt is ExportFormat.GIF:
        hint += "; as mp4 the episode is a far smaller file than a GIF of that size."
    else:
        hint += "."
    raise ExportError(
        f"A {width}x{height} {fmt.value}{what} needs about {_size(needed)} of memory to encode, more than this "
        f"export can use ({why}); it would be stopped halfway.",
        hint=hint)
