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

On Linux each ffmpeg also dies with the thread that started it, even one killed outright
(SIGKILL, the OOM killer), which runs no clean-up: fed through a pipe, ffmpeg took the
closed pipe for the end of its input and went on encoding alone for seconds. The kernel's
``PR_SET_PDEATHSIG`` does it, set by util-linux's ``setpriv`` just before it becomes ffmpeg
(:func:`_command`), so still without a ``preexec_fn``; where ``setpriv`` is missing or too
old, ffmpeg starts as before. (A parent that dies in the moment before ``setpriv`` sets
it is not noticed: one start in very many, and no worse than before.)
"""

from __future__ import annotations

import contextlib
import errno
import functools
import mmap
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING

from studio.core.errors import StudioError
from studio.core.progress import CancelCheck, Cancelled
from studio.storage.mp4_index import mp4_frames

if TYPE_CHECKING:
    import numpy as np

DISK_FULL_MESSAGES = ("No space left on device", "File too large", "Disk quota exceeded")
_QUIET = ("-hide_banner", "-loglevel", "error", "-nostdin")


class MediaError(StudioError):
    """A media file that can't be written or read."""


def ffmpeg_exe() -> str:
    import imageio_ffmpeg

    return str(imageio_ffmpeg.get_ffmpeg_exe())


def path_arg(path: Path | str) -> str:
    """``path`` as ffmpeg must be given it on its command line: a relative path starting with
    ``-`` ("-dash.kamishibai/...", which Python makes of "./-dash.kamishibai") was read as an
    option, and one holding a ``:`` before its first ``/`` ("take:1.mp4") as a protocol's
    name. ``./`` before every relative path means the same file and is neither."""
    text = os.fspath(path)
    return text if os.path.isabs(text) else os.path.join(os.curdir, text)


@functools.cache
def _dies_with_parent() -> tuple[str, ...]:
    """The prefix that makes a command die with the thread that starts it, or () where this
    system can't: not Linux, no ``setpriv`` on the PATH, or one without ``--pdeathsig``
    (util-linux before 2.33), or one the system does not let do it. Checked once, by
    running ``setpriv`` through itself (nothing else need be on the PATH).

    The kernel's "parent" is the *thread* that forked, not the process: a child started
    on a thread that then ends is killed with it. Every ffmpeg here is started, waited for
    and killed by one thread: :func:`probe` and :func:`run_with_progress` block on it; a
    :class:`FrameEncoder` lives in one ``with`` block; :func:`decode_frames` is a generator
    its callers start and close on one thread (export's prefetch thread, for instance).
    Keep it so: handing a running encoder or decoder to another thread would have it
    killed when the first one ends."""
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    if setpriv is None:
        return ()
    prefix = (setpriv, "--pdeathsig", "KILL", "--")
    try:
        done = subprocess.run([*prefix, setpriv, "--version"], capture_output=True, check=False, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ()
    return prefix if done.returncode == 0 else ()


def dies_with_parent() -> bool:
    """Whether ffmpeg processes started here die with the thread that started them."""
    return bool(_dies_with_parent())


def _command(args: Sequence[str]) -> list[str]:
    """``args`` (the ffmpeg executable first) as the command to start: see the module's note.

    ``setpriv`` replaces itself with ffmpeg (same pid, signals and exit status as ffmpeg's
    own), so nothing else changes for the caller."""
    return [*_dies_with_parent(), *args]


def fps_arg(fps: Fraction | float) -> str:
    rate = fps if isinstance(fps, Fraction) else exact_fps(float(fps))
    return f"{rate.numerator}/{rate.denominator}"


def _kill(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    if process.poll() is None:
        with contextlib.suppress(OSError):
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)


_COMPONENT_PREFIX = re.compile(r"(?:\[(?:[^\[\]\n]* @ (?:0x)?[0-9a-fA-F]+|(?:in|out)#[^\[\]\n]*)\]\s*)+")
"""ffmpeg's own prefixes naming the part that speaks and its address in memory: ``[h264 @
0x55d0c3a1e2c0]``, ``[out#0/rawvideo @ 0x55...]``, ``[in#0/mov,mp4,m4a,3gp,3g2,mj2 @ ...]``
(one or more, at a line's start): nothing a user can act on."""


def ffmpeg_words(line: str) -> str:
    """One line of ffmpeg's report as a user reads it: without its component prefixes."""
    return _COMPONENT_PREFIX.sub("", line.strip(), count=1).strip()


def as_clause(text: str) -> str:
    """``text`` ending in a full stop, unless it ends in one already (or in ``!``, ``?`` or an
    ellipsis): for ffmpeg's words quoted at the end of a message ("Can't decode PATH: ...")."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "\u2026")) else f"{text}."


def _tail(log: IO[bytes]) -> str:
    """ffmpeg's last line that says something (see :func:`ffmpeg_words`)."""
    log.seek(0)
    lines = [ffmpeg_words(line) for line in log.read().decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1] if lines else ""


def _unwritable_output(message: str) -> int | None:
    """The errno of ffmpeg's last words when they say its output could not be made: a
    read-only disk, or a folder (or file) this user may not write. Raised as an OSError,
    it is told as any other write into a read-only project folder is, with what to do,
    rather than as ffmpeg's bare "Error opening output files: Permission denied". A
    "Permission denied" on an input file (a source clip the user may not read) stays
    ffmpeg's own message."""
    if "Read-only file system" in message:
        return errno.EROFS
    if "Permission denied" in message and "output" in message:
        return errno.EACCES
    return None


def check_exit(returncode: int, message: str, target: Path, what: str) -> None:
    """Raise for a failed ffmpeg run: ``OSError`` for a full disk or a size limit (naming
    ``target``), :class:`MediaError` otherwise."""
    if returncode == 0:
        return
    if returncode == -signal.SIGXFSZ or "File too large" in message:
        raise OSError(errno.EFBIG, "File too large", str(target))
    if any(m in message for m in DISK_FULL_MESSAGES):
        raise OSError(errno.ENOSPC, "No space left on device", str(target))
    unwritable = _unwritable_output(message)
    if unwritable is not None:
        raise OSError(unwritable, os.strerror(unwritable), str(target))
    if returncode < 0:
        message = f"stopped by signal {signal.Signals(-returncode).name}"
    raise MediaError(f"ffmpeg could not {what} {target.name}: {as_clause(message or f'exit status {returncode}')}")


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


def declared_seconds(report: str) -> float | None:
    """The duration the input's report gives (``Duration: 00:00:07.00``), if any."""
    match = _DURATION_RE.search(report.split("Stream mapping:", 1)[0])
    if match is None:
        return None
    return int(match["h"]) * 3600 + int(match["m"]) * 60 + float(match["s"])


def declared_frames(report: str, fps: Fraction) -> int | None:
    """How many frames the container's header says the clip lasts (its duration x fps)."""
    seconds = declared_seconds(report)
    return None if seconds is None else round(seconds * float(fps))


def probe(path: Path) -> StreamInfo:
    """Codec, size, frame rate, time base and the exact frame count of ``path``'s video.

    One ffmpeg run: the stream header from its report, the frame count from ``-c copy -f
    null`` (nothing is decoded). A clip shorter than its header says is refused."""
    if not path.is_file():
        raise MediaError(f"{path} does not exist.")
    result = subprocess.run(
        _command([ffmpeg_exe(), "-hide_banner", "-nostdin", "-nostats", "-i", path_arg(path), "-map", "0:v:0", "-c",
                  "copy", "-f", "null", "-", "-progress", "pipe:1"]),
        capture_output=True, text=True, check=False, errors="replace", process_group=0,
    )
    if result.returncode != 0:
        words = [ffmpeg_words(line) for line in result.stderr.splitlines()]
        tail = [line for line in words if line][-1:] or ["unknown error"]
        raise MediaError(f"{path} is not a readable video: {tail[0]}")
    info = parse_stream_report(result.stderr, result.stdout, path)
    if info.codec == "gif":
        return _judged_gif(path, info, result.stderr)
    indexed = _indexed_frames(path)
    if indexed is not None and info.frames + 1 < indexed:  # every frame's bytes are there
        raise MediaError(f"{path} is damaged: only {info.frames} of its {indexed} frames can be read (those before "
                         "its first whole key frame can't be decoded).")
    declared = indexed if indexed is not None else declared_frames(result.stderr, info.fps)
    # A file cut before its first whole frame is still "cut short" when its header says it
    # holds frames: the user learns the file was damaged, not that the clip was empty.
    if "partial file" in result.stderr or (declared is not None and info.frames + 1 < declared):
        of = f" of {declared}" if declared is not None else ""
        raise MediaError(f"{path} is cut short: only {info.frames}{of} frames can be read.")
    if info.frames < 1:
        raise MediaError(f"{path} holds no frames.")
    return info


def _indexed_frames(path: Path) -> int | None:
    """The frames an MP4 clip's index lists for its video (None for a file whose index is not
    read, another container among them); :class:`MediaError` where some of them lie past the
    file's end.

    ffmpeg reads a clip cut inside its last frame, or just before it, without a word (the
    frame comes out short, or not at all), so the index says where each frame lies. And the
    index's count is the clip's own, where the container's duration is its longest track's:
    a clip with a longer audio track was refused as "cut short"."""
    frames = mp4_frames(path)
    if frames is None:
        return None
    whole, total = frames
    if whole < total:
        raise MediaError(f"{path} is cut short: only {whole} of {total} frames can be read.")
    return total


# -- GIFs ----------------------------------------------------------------------------------
#
# A GIF has no frame rate and no duration in its header: each frame has its own delay, in
# whole centiseconds. ffmpeg's "Duration" is the sum of the delays it read, so it can't
# tell that a GIF was cut short (one cut in half reports half the duration), and its
# "fps" is a guess from the delays: 24 fps is delays of 4, 4 and 5 cs (which the export
# writes so that they add up to the clip's length), and ffmpeg reports 25 fps (4 cs), next
# to "24 tbr". Duration x 25 fps expected 175 frames of a whole 168-frame GIF.
#
# So a GIF is judged by its own structure instead: whole when its blocks run, each one
# complete, to its end mark (the trailer, ``;``); its frame rate is the rate ffmpeg
# reports that agrees with its frame count and duration, or else frames / duration.

_GIF_TRAILER, _GIF_EXTENSION, _GIF_IMAGE = 0x3B, 0x21, 0x2C


def _judged_gif(path: Path, info: StreamInfo, report: str) -> StreamInfo:
    """``info`` of a GIF with its true frame rate, or :class:`MediaError` for a GIF cut
    short (or damaged) or without frames."""
    whole, complete = gif_frames(path)
    if not complete:
        raise MediaError(f"{path} is cut short: only {whole} whole frames can be read (the GIF's end is missing).")
    if info.frames < 1:
        raise MediaError(f"{path} holds no frames.")
    seconds = declared_seconds(report)
    if seconds is None or seconds <= 0:
        return info
    return replace(info, fps=_gif_rate(info.frames, seconds, report))


def _gif_rate(frames: int, seconds: float, report: str) -> Fraction:
    """The rate ffmpeg reports (``fps``, then ``tbr``) that lasts ``seconds`` to the
    centisecond for ``frames`` frames, else frames / seconds."""
    header = report.split("Stream mapping:", 1)[0]
    line = next((ln for ln in header.splitlines() if _STREAM_RE.match(ln)), "")
    for match in _FPS_RE.finditer(line):
        rate = exact_fps(float(match["fps"]) * (1000 if match["k"] else 1))
        if rate > 0 and abs(frames / float(rate) - seconds) <= 0.0101:
            return rate
    return exact_fps(frames / seconds)


def gif_frames(path: Path) -> tuple[int, bool]:
    """The whole frames (image blocks) of the GIF at ``path``, and whether its blocks run
    complete to its trailer. Only block headers and sizes are read, not the pictures."""
    with path.open("rb") as handle:
        try:
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file
            return 0, False
        with data:
            return _walk_gif(data)


def _walk_gif(data: mmap.mmap | bytes) -> tuple[int, bool]:
    end = len(data)
    if end < 13 or data[:6] not in (b"GIF87a", b"GIF89a"):
        return 0, False
    pos = 13 + _color_table(data[10])
    frames = 0
    while pos < end:
        block = data[pos]
        if block == _GIF_TRAILER:
            return frames, True
        if block == _GIF_EXTENSION:
            pos = _after_sub_blocks(data, pos + 2)
        elif block == _GIF_IMAGE and pos + 10 <= end:
            pos = _after_sub_blocks(data, pos + 10 + _color_table(data[pos + 9]) + 1)  # + LZW code size
            frames += pos <= end
        else:  # cut inside a descriptor, or bytes no GIF holds there
            break
    return frames, False


def _color_table(packed: int) -> int:
    """The bytes of the colour table a descriptor's packed field announces."""
    return 3 * (2 << (packed & 7)) if packed & 0x80 else 0


def _after_sub_blocks(data: mmap.mmap | bytes, pos: int) -> int:
    """Where the data sub-blocks starting at ``pos`` end (past their empty terminator);
    past the end of ``data`` when they are cut short."""
    end = len(data)
    while pos < end:
        size = data[pos]
        pos += 1 + size
        if size == 0:
            return pos
    return end + 1


# -- decode --------------------------------------------------------------------------------

def decode_frames(path: Path, size: tuple[int, int], source_size: tuple[int, int] | None = None,
                  limit: int | None = None) -> Generator[np.ndarray, None, None]:
    """RGB frames (H x W x 3 uint8) of ``path`` at ``size``: scaled to fit and letterboxed
    (black bars) when the clip's own ``source_size`` differs. More than ``limit`` frames
    raise :class:`MediaError`."""
    import numpy as np

    width, height = size
    args = [ffmpeg_exe(), *_QUIET, "-i", path_arg(path), "-map", "0:v:0"]
    if source_size is not None and source_size != size:
        args += ["-vf", f"scale={width}:{height}:force_original_aspect_ratio=decrease:flags=bicubic,"
                        f"pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1"]
    args += ["-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]
    frame_bytes = width * height * 3
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(_command(args), stdout=subprocess.PIPE, stderr=log, bufsize=frame_bytes,
                                   process_group=0)
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
                reason = _tail(log) or f"exit status {process.returncode}"
                raise MediaError(f"Can't decode {path}: {as_clause(reason)}")
        finally:
            _kill(process)
            if process.stdout:
                process.stdout.close()


# -- encode --------------------------------------------------------------------------------

RGB_COLOUR_TAGS = ("-colorspace", "smpte170m", "-color_range", "tv")
"""The colour matrix and range a stream encoded from RGB frames names: those ffmpeg turns RGB
into YUV with (BT.601, limited range). A stream that names none is decoded with a matrix
guessed from its size, BT.709 from 1280 wide or over 576 high (mpv, VLC, browsers): at
1280x720, (40, 200, 60) showed as (27, 174, 54). Only for frames this studio made from RGB:
a video transcoded from a user's file keeps the tags its own frames carry."""


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
                "-framerate", fps_arg(fps), "-i", "pipe:0", "-an", *output_args, *meta, path_arg(target)]
        try:
            self._process = subprocess.Popen(_command(args), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
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
    with FrameEncoder(path, (w, h), fps, [*h264_args(crf, preset, threads), *RGB_COLOUR_TAGS]) as encoder:
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
        process = subprocess.Popen(_command(command), stdout=subprocess.PIPE, stderr=log, text=True,
                                   process_group=0)
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
