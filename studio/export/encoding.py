"""Codec settings per export format (ffmpeg itself is driven by :mod:`studio.storage.ffmpeg`)."""

from __future__ import annotations

from studio.export.errors import ExportError
from studio.export.options import ExportFormat
from studio.storage.ffmpeg import h264_args

H264_CRF = 18
VP9_CRF = 32
H264_PRESET = "veryfast"


def encoder_args(fmt: ExportFormat, crf: int | None) -> list[str]:
    """ffmpeg's output options for ``fmt`` (``crf`` None: the format's default quality)."""
    if fmt == ExportFormat.MP4:
        return h264_args(H264_CRF if crf is None else crf, H264_PRESET)
    if fmt == ExportFormat.WEBM:
        return ["-c:v", "libvpx-vp9", "-crf", str(VP9_CRF if crf is None else crf), "-b:v", "0",
                "-pix_fmt", "yuv420p", "-row-mt", "1", "-deadline", "good", "-cpu-used", "5", "-f", "webm"]
    if fmt == ExportFormat.GIF:
        return ["-filter_complex", "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:"
                "bayer_scale=4:diff_mode=rectangle", "-loop", "0", "-f", "gif"]
    raise ExportError(f"{fmt.value} is not a video format.")


def check_frame_size(fmt: ExportFormat, size: tuple[int, int]) -> None:
    width, height = size
    if fmt in (ExportFormat.MP4, ExportFormat.WEBM) and (width % 2 or height % 2):
        raise ExportError(f"{fmt.value} needs an even width and height, not {width}x{height}.")
