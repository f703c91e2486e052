"""The one module that drives ffmpeg: probe, decode, encode and a cancellable run.

Storage (clips of takes), the engine hosts (through storage's media writers) and export
all go through here. ffmpeg comes from the ``imageio-ffmpeg`` wheel, so this works
offline; only the executable is taken from that package, every process is ours.

Failures raise :class:`MediaError` with ffmpeg's last line; a full disk or a file size
limit raises ``OSError(ENOSPC or EFBIG, target)`` so that each caller can name the file
the user knows. Every process is killed when its ``with`` block (or generator) is left
early, so an abandoned read or write leaves no ffmpeg behind.

Processes start without a ``preexec_fn`` (``process_group=0`` instead): a preexec_fn
forces a full fork() that holds the GIL while a large process is copied, which the
window would feel as a stall; without it Python can use vfork.
"""

from __future__ import annotations

import contextlib
import errno
import re
import signal
import subprocess
import tempfile
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING

from studio.core.errors import StudioError
from studio.core.progress import CancelCheck, Cancelled

if TYPE_CHECKING:
    import numpy as np

DISK_FULL_MESSAGES = ("No space left on device", "File too large", "Disk quota exceeded")
_QUIET = ("-hide_banner", "-loglevel", "error", "-nostdin")


class MediaError(StudioError):
    """A media file that can't be written or read."""


def ffmpeg_exe() -> str:
    import imageio_ffmpeg

    return str(imageio_ffmpeg.get_ffmpeg_exe())


def fps_arg(fps: Fraction | float) -> str:
    rate = fps if isinstance(fps, Fraction) else exact_fps(float(fps))
    return f"{rate.numerator}/{rate.denominator}"


def _kill(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    if process.poll() is None:
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)


def _tail(log: IO[bytes]) -> str:
    log.seek(0)
    lines = [line.strip() for line in log.read().decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1] if lines else ""


def check_exit(returncode: int, message: str, target: Path, what: str) -> None:
    """Raise for a failed ffmpeg run: ``OSError`` for a full disk or a size limit (naming
    ``target``), :class:`MediaError` otherwise."""
    if returncode == 0:
        return
    if returncode == -signal.SIGXFSZ or "File too large" in message:
        raise OSError(errno.EFBIG, "File too large", str(target))
    if any(m in message for m in DISK_FULL_MESSAGES):
        raise OSError(errno.ENOSPC, "No space left on device", str(target))
    if returncode < 0:
        message = f"stopped by signal {signal.Signals(-returncode).name}"
    raise MediaError(f"ffmpeg could not {what} {target.name}: {message or f'exit status {returncode}'}.")


# -- probe ---------------------------------------------------------------------------------

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
        raise MediaError(f"{path} holds no video stream.")
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
        raise MediaError(f"Can't read the video parameters of {path}.")
    rate = float(fps["fps"]) * (1000 if fps["k"] else 1)
    return StreamInfo(
        codec=match["codec"], profile=match["profile"] or "", pix_fmt=pix_fmt,
        width=int(size["w"]), height=int(size["h"]), fps=exact_fps(rate),
        time_base=tbn["tbn"] if tbn else "", frames=int(counts[-1]),
    )


def declared_frames(report: str, fps: Fraction) -> int | None:
    """How many frames the container's header says the clip lasts (its duration x fps)."""
    match = _DURATION_RE.search(report.split("Stream mapping:", 1)[0])
    if match is None:
        return None
    seconds = int(match["h"]) * 3600 + int(match["m"]) * 60 + float(match["s"])
    return round(seconds * float(fps))


def probe(path: Path) -> StreamInfo:
    """Codec, size, frame rate, time base and the exact frame count of ``path``'s video.

    One ffmpeg run: the stream header from its report, the frame count from ``-c copy -f
    null`` (nothing is decoded). A clip shorter than its header says is refused."""
    if not path.is_file():
        raise MediaError(f"{path} does not exist.")
    result = subprocess.run(
        [ffmpeg_exe(), "-hide_banner", "-nostdin", "-nostats", "-i", str(path), "-map", "0:v:0", "-c", "copy",
         "-f", "null", "-", "-progress", "pipe:1"],
        capture_output=True, text=True, check=False, errors="replace", process_group=0,
    )
    if result.returncode != 0:
        tail = result.stderr.strip().splitlines()[-1:] or ["unknown error"]
        raise MediaError(f"{path} is not a readable video: {tail[0]}")
    info = parse_stream_report(result.stderr, result.stdout, path)
    declared = declared_frames(result.stderr, info.fps)
    # A file cut before its first whole frame is still "cut short" when its header says it
    # holds frames: the user learns the file was damaged, not that the clip was empty.
    if "partial file" in result.stderr or (declared is not None and info.frames + 1 < declared):
        of = f" of {declared}" if declared is not None else ""
        raise MediaError(f"{path} is cut short: only {info.frames}{of} frames can be read.")
    if info.frames < 1:
        raise MediaError(f"{path} holds no frames.")
    return info


# -- decode --------------------------------------------------------------------------------

def decode_frames(path: Path, size: tuple[int, int], source_size: tuple[int, int] | None = None,
                  limit: int | None = None) -> Generator[np.ndarray, None, None]:
    """RGB frames (H x W x 3 uint8) of ``path`` at ``size``: scaled to fit and letterboxed
    (black bars) when the clip's own ``source_size`` differs. More than ``limit`` frames
    raise :class:`MediaError`."""
    import numpy as np

    width, height = size
    args = [ffmpeg_exe(), *_QUIET, "-i", str(path), "-map", "0:v:0"]
    if source_size is not None and source_size != size:
        args += ["-vf", f"scale={width}:{height}:force_original_aspect_ratio=decrease:flags=bicubic,"
                        f"pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1"]
    args += ["-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]
    frame_bytes = width * height * 3
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, bufsize=frame_bytes, process_group=0)
        try:
            stdout = process.stdout
            assert stdout is not None
            count = 0
            while True:
                data = stdout.read(frame_bytes)
                if len(data) < frame_bytes:
                    break
                count += 1
                if limit is not None and count > limit:
                    raise MediaError(f"{path} holds more than {limit:,} frames of {width} x {height}.")
                yield np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)
            process.wait()
            if process.returncode != 0:
                raise MediaError(f"Can't decode {path}: {_tail(log) or f'exit status {process.returncode}'}.")
        finally:
            _kill(process)
            if process.stdout:
                process.stdout.close()


# -- encode --------------------------------------------------------------------------------

def h264_args(crf: int, preset: str = "veryfast", threads: int | None = None) -> list[str]:
    """H.264/yuv420p with the index at the front (plays while it loads)."""
    args = ["-c:v", "libx264", "-preset", preset, "-crf", str(crf), "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
    if threads is not None:
        args += ["-threads", str(threads)]
    return args


class FrameEncoder:
    """Pipes RGB frames into ffmpeg, which encodes them to ``target`` with ``output_args``
    (codec and container options, e.g. :func:`h264_args`)."""

    def __init__(self, target: Path, size: tuple[int, int], fps: Fraction | float, output_args: Sequence[str],
                 title: str = "") -> None:
        self.target = target
        self.size = size
        self.frames = 0
        width, height = size
        meta = ["-metadata", f"title={title}"] if title else []
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in __exit__
        args = [ffmpeg_exe(), *_QUIET, "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}",
                "-framerate", fps_arg(fps), "-i", "pipe:0", "-an", *output_args, *meta, str(target)]
        try:
            self._process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                             stderr=self._log, process_group=0)
        except OSError:
            self._log.close()
            raise

    def write(self, frames: np.ndarray) -> None:
        """One frame (H x W x 3) or several (T x H x W x 3), uint8."""
        import numpy as np

        stdin = self._process.stdin
        assert stdin is not None
        array = np.ascontiguousarray(frames, dtype=np.uint8)
        try:
            stdin.write(array.data)
        except BrokenPipeError:
            self._process.wait()
            check_exit(self._process.returncode or 1, _tail(self._log), self.target, "write")
            raise
        self.frames += 1 if array.ndim == 3 else len(array)

    def finish(self) -> None:
        """Close the pipe and wait for ffmpeg; raise if it failed."""
        stdin = self._process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError):
            stdin.close()
        self._process.wait()
        check_exit(self._process.returncode, _tail(self._log), self.target, "write")

    def abort(self) -> None:
        _kill(self._process)

    def __enter__(self) -> FrameEncoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.abort()
        with contextlib.suppress(OSError):
            if self._process.stdin:
                self._process.stdin.close()
        self._log.close()


def even_frames(frames: np.ndarray) -> np.ndarray:
    """yuv420p needs even sizes: pad the last row/column by repeating the edge."""
    import numpy as np

    _, h, w, _ = frames.shape
    pad_h, pad_w = h % 2, w % 2
    if pad_h or pad_w:
        frames = np.pad(frames, ((0, 0), (0, pad_h), (0, pad_w), (0, 0)), mode="edge")
    return frames


ENCODER_LAG_FRAMES = 24
"""Frames ffmpeg accepts before it encodes (its input queue and x264's lookahead; about 24,
measured on 1600 x 1600 clips)."""


def encode_mp4(path: Path, frames: np.ndarray, fps: float, crf: int, preset: str = "veryfast",
               threads: int = 1, encoded: Callable[[int], None] | None = None) -> None:
    """Encode uint8 T x H x W x 3 frames as H.264/yuv420p mp4 at ``path`` (not atomic).

    ``encoded(n)``, when given, is told as the n-th frame is encoded: frames are fed one by
    one, and the count lags what was fed by :data:`ENCODER_LAG_FRAMES` (ffmpeg takes that
    many at once and encodes them when it is closed; counting the frames fed would make the
    first second look like the whole clip)."""
    import numpy as np

    frames = even_frames(np.ascontiguousarray(frames, dtype=np.uint8))
    _, h, w, _ = frames.shape
    with FrameEncoder(path, (w, h), fps, h264_args(crf, preset, threads)) as encoder:
        if encoded is None:
            encoder.write(frames)
        else:
            for index, frame in enumerate(frames, start=1):
                encoder.write(frame)
                if index > ENCODER_LAG_FRAMES:
                    encoded(index - ENCODER_LAG_FRAMES)
        encoder.finish()
    if encoded is not None:
        encoded(len(frames))


# -- a run with progress -------------------------------------------------------------------

def run_with_progress(args: list[str], target: Path, total_seconds: float,
                      on_seconds: Callable[[float], None], cancelled: CancelCheck, what: str = "write") -> None:
    """Run ffmpeg (``args`` without the executable), calling ``on_seconds(done)`` with the
    output time reached, and killing it as soon as ``cancelled()`` says so."""
    command = [ffmpeg_exe(), *_QUIET, "-nostats", "-y", "-progress", "pipe:1", *args]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True, process_group=0)
        try:
            assert process.stdout is not None
            for line in process.stdout:
                if cancelled():
                    raise Cancelled()
                key, _, value = line.strip().partition("=")
                if key == "out_time_us" and value.isdigit() and total_seconds > 0:
                    on_seconds(min(total_seconds, int(value) / 1e6))
            process.wait()
            check_exit(process.returncode, _tail(log), target, what)
        finally:
            _kill(process)
            if process.stdout:
                process.stdout.close()
