"""Codec settings per export format, and the options each format can honour (ffmpeg itself
is driven by :mod:`studio.storage.ffmpeg`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from studio.export.errors import ExportError
from studio.export.options import ExportFormat, ExportOptions
from studio.storage.ffmpeg import h264_args

H264_CRF = 18
VP9_CRF = 32
H264_PRESET = "veryfast"

MAX_GIF_FPS = 50
"""A GIF frame's delay is a whole number of centiseconds, and browsers play a delay of 0 or
1 cs (10 ms) as 100 ms: above 50 fps some frames would get 1 cs and the GIF would crawl."""


@dataclass(frozen=True)
class CrfRange:
    codec: str
    lowest: int
    highest: int
    default: int


CRF_RANGES: dict[ExportFormat, CrfRange] = {
    ExportFormat.MP4: CrfRange("H.264", 0, 51, H264_CRF),
    ExportFormat.WEBM: CrfRange("VP9", 0, 63, VP9_CRF),
}
"""The formats whose encoder takes a quality (CRF), and the values it accepts."""


def check_options(fmt: ExportFormat, options: ExportOptions) -> None:
    """Refuse what ``fmt`` can't honour, rather than ignore it: a quality (CRF) for a format
    without one or outside its encoder's range, a frame rate a GIF can't play."""
    if options.crf is not None:
        crf = CRF_RANGES.get(fmt)
        if crf is None:
            takes = " and ".join(f.value for f in CRF_RANGES)
            raise ExportError(f"A quality (CRF) applies only to {takes} videos, not to {fmt.value}.",
                              hint="Leave out --crf for this format.")
        if not crf.lowest <= options.crf <= crf.highest:
            raise ExportError(f"Quality (CRF) {options.crf} is outside {crf.codec}'s {crf.lowest}..{crf.highest} "
                              f"({fmt.value}).",
                              hint=f"Lower is better; {crf.default} is the default.")
    if options.fps is not None:
        check_frame_rate(fmt, options.fps)


def check_frame_rate(fmt: ExportFormat, fps: float | Fraction, from_clips: bool = False) -> None:
    """Refuse a GIF faster than :data:`MAX_GIF_FPS` (``from_clips``: the rate is the clips' own,
    none was asked for)."""
    if fmt == ExportFormat.GIF and fps > MAX_GIF_FPS:
        what = f"The clips run at {float(fps):g} fps, which" if from_clips else f"{float(fps):g} fps"
        raise ExportError(f"{what} is too fast for a GIF: its frame delays are whole hundredths of a second, and "
                          f"players slow a delay under 2 hundredths down to a tenth of a second.",
                          hint=f"Give a frame rate of {MAX_GIF_FPS} fps or less (--fps {MAX_GIF_FPS}; 50, 25, 20 "
                          "or 10 give every frame the same delay).")


def _centiseconds(frame: int, fps: Fraction) -> int:
    """When ``frame`` starts, in whole centiseconds, rounded half up as ffmpeg rounds the GIF's
    timestamps."""
    return math.floor(Fraction(frame) * 100 / fps + Fraction(1, 2))


def gif_final_delay(frames: int, fps: Fraction) -> int:
    """The last frame's delay that makes the GIF's delays add up to its duration (ffmpeg would
    repeat the delay before it, which can be a centisecond off)."""
    if frames <= 1:
        return max(1, _centiseconds(1, fps))
    return max(1, _centiseconds(frames, fps) - _centiseconds(frames - 1, fps))


def encoder_args(fmt: ExportFormat, crf: int | None, fps: Fraction, frames: int) -> list[str]:
    """ffmpeg's output options for ``frames`` frames at ``fps`` in ``fmt`` (``crf`` None: the
    format's default quality). Each names its muxer, so that any file name will do."""
    if fmt == ExportFormat.MP4:
        return [*h264_args(H264_CRF if crf is None else crf, H264_PRESET), "-f", "mp4"]
    if fmt == ExportFormat.WEBM:
        return ["-c:v", "libvpx-vp9", "-crf", str(VP9_CRF if crf is None else crf), "-b:v", "0",
                "-pix_fmt", "yuv420p", "-row-mt", "1", "-deadline", "good", "-cpu-used", "5", "-f", "webm"]
    if fmt == ExportFormat.GIF:
        return ["-filter_complex", "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:"
                "bayer_scale=4:diff_mode=rectangle", "-loop", "0",
                "-final_delay", str(gif_final_delay(frames, fps)), "-f", "gif"]
    raise ExportError(f"{fmt.value} is not a video format.")


def check_frame_size(fmt: ExportFormat, size: tuple[int, int]) -> None:
    width, height = size
    if fmt in (ExportFormat.MP4, ExportFormat.WEBM) and (width % 2 or height % 2):
        raise ExportError(f"{fmt.value} needs an even width and height, not {width}x{height}.")
