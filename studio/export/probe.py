"""Stream parameters of a clip, read from ffmpeg's own report (there is no ffprobe).

One ffmpeg run per clip gives both the stream header (codec, profile, pixel format, size,
frame rate, time base) and the exact frame count (``-c copy -f null``: nothing decoded).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from studio.export.errors import ExportError
from studio.storage.media import ffmpeg_exe

_STREAM_RE = re.compile(r"^\s*Stream #\d+:\d+.*?: Video: (?P<codec>\w+)(?: \((?P<profile>[^)]*)\))?(?P<rest>.*)$")
_PIX_RE = re.compile(r"^\s*(?P<pix>[a-z0-9_]+)(?:\([^)]*\))?$")
_SIZE_RE = re.compile(r"\b(?P<w>\d{2,5})x(?P<h>\d{2,5})\b")
_FPS_RE = re.compile(r"(?P<fps>\d+(?:\.\d+)?)(?P<k>k?) (?:fps|tbr)\b")
_TBN_RE = re.compile(r"(?P<tbn>\d+(?:\.\d+)?k?) tbn\b")
_DURATION_RE = re.compile(r"^\s*Duration: (?P<h>\d+):(?P<m>\d\d):(?P<s>\d\d(?:\.\d+)?)", re.MULTILINE)


@dataclass(frozen=True)
class StreamInfo:
    """The video stream of one clip."""

    codec: str
    profile: str
    pix_fmt: str
    width: int
    height: int
    fps: Fraction
    time_base: str
    frames: int

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def duration(self) -> float:
        return self.frames / float(self.fps)

    def copy_key(self) -> tuple[object, ...]:
        """Parameters that must be equal for clips to be joined by stream copy."""
        return (self.codec, self.profile, self.pix_fmt, self.width, self.height, self.fps, self.time_base)


def exact_fps(value: float) -> Fraction:
    """A float frame rate as a fraction; NTSC rates (29.97...) become n*1000/1001."""
    ntsc = value * 1001 / 1000
    if abs(ntsc - round(ntsc)) < 0.01 and abs(value - round(value)) > 0.001:
        return Fraction(round(ntsc) * 1000, 1001)
    return Fraction(value).limit_denominator(1000)


def _split_top(text: str) -> list[str]:
    """Split on commas outside parentheses."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def parse_stream_report(report: str, frames_out: str, path: Path) -> StreamInfo:
    """Parse ffmpeg's stderr (stream header) and ``-progress`` output (frame count)."""
    header = report.split("Stream mapping:", 1)[0]
    for line in header.splitlines():
        match = _STREAM_RE.match(line)
        if match:
            break
    else:
        raise ExportError(f"{path} holds no video stream.")
    rest = _split_top(match["rest"])
    pix_fmt = ""
    for part in rest[1:]:
        pix = _PIX_RE.match(part)
        if pix and not part.strip()[0].isdigit():
            pix_fmt = pix["pix"]
            break
    size = _SIZE_RE.search(match["rest"])
    fps = _FPS_RE.search(match["rest"])
    tbn = _TBN_RE.search(match["rest"])
    counts = re.findall(r"^frame=\s*(\d+)", frames_out, re.MULTILINE)
    if not (size and fps and counts):
        raise ExportError(f"Can't read the video parameters of {path}.")
    rate = float(fps["fps"]) * (1000 if fps["k"] else 1)
    return StreamInfo(
        codec=match["codec"], profile=match["profile"] or "", pix_fmt=pix_fmt,
        width=int(size["w"]), height=int(size["h"]), fps=exact_fps(rate),
        time_base=tbn["tbn"] if tbn else "", frames=int(counts[-1]),
    )


def probe_stream(path: Path) -> StreamInfo:
    if not path.is_file():
        raise ExportError(f"{path} does not exist.")
    result = subprocess.run(
        [ffmpeg_exe(), "-hide_banner", "-nostats", "-i", str(path), "-map", "0:v:0", "-c", "copy",
         "-f", "null", "-", "-progress", "pipe:1"],
        capture_output=True, text=True, check=False, errors="replace",
    )
    if result.returncode != 0:
        tail = result.stderr.strip().splitlines()[-1:] or ["unknown error"]
        raise ExportError(f"{path} is not a readable video: {tail[0]}")
    info = parse_stream_report(result.stderr, result.stdout, path)
    if info.frames < 1:
        raise ExportError(f"{path} holds no frames.")
    declared = declared_frames(result.stderr, info.fps)
    if "partial file" in result.stderr or (declared is not None and info.frames + 1 < declared):
        of = f" of {declared}" if declared is not None else ""
        raise ExportError(f"{path} is cut short: only {info.frames}{of} frames can be read.")
    return info


def declared_frames(report: str, fps: Fraction) -> int | None:
    """How many frames the container's header says the clip lasts (its duration x fps)."""
    match = _DURATION_RE.search(report.split("Stream mapping:", 1)[0])
    if match is None:
        return None
    seconds = int(match["h"]) * 3600 + int(match["m"]) * 60 + float(match["s"])
    return round(seconds * float(fps))
