"""ffmpeg processes for export: a frame decoder, a frame encoder and a cancellable run.

Every process is killed when its ``with`` block exits early (error, cancel, Ctrl-C), so
an abandoned export leaves no ffmpeg behind still writing a file.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import IO

import numpy as np

from studio.core.progress import CancelCheck, Cancelled, Progress, ProgressCallback
from studio.export.errors import DISK_FULL_ERRNOS, ExportError, disk_full_error, os_error
from studio.export.options import ExportFormat
from studio.storage.media import ffmpeg_exe

DISK_FULL_MESSAGES = ("No space left on device", "File too large", "Disk quota exceeded")
H264_CRF = 18
VP9_CRF = 32
H264_PRESET = "veryfast"


def fps_arg(fps: Fraction) -> str:
    return f"{fps.numerator}/{fps.denominator}"


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


def check_exit(returncode: int, log: IO[bytes], target: Path, what: str) -> None:
    """Raise a clear :class:`ExportError` for a failed ffmpeg run."""
    if returncode == 0:
        return
    message = _tail(log)
    if returncode == -signal.SIGXFSZ or any(m in message for m in DISK_FULL_MESSAGES):
        raise disk_full_error(target)
    if returncode < 0:
        message = f"stopped by signal {signal.Signals(-returncode).name}"
    raise ExportError(f"ffmpeg could not {what} {target.name}: {message or f'exit status {returncode}'}.")


def encoder_args(fmt: ExportFormat, crf: int | None) -> list[str]:
    if fmt == ExportFormat.MP4:
        return ["-c:v", "libx264", "-preset", H264_PRESET, "-crf", str(H264_CRF if crf is None else crf),
                "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
    if fmt == ExportFormat.WEBM:
        return ["-c:v", "libvpx-vp9", "-crf", str(VP9_CRF if crf is None else crf), "-b:v", "0",
                "-pix_fmt", "yuv420p", "-row-mt", "1", "-deadline", "good", "-cpu-used", "5", "-f", "webm"]
    if fmt == ExportFormat.GIF:
        return ["-filter_complex", "split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer:"
                "bayer_scale=4:diff_mode=rectangle", "-loop", "0", "-f", "gif"]
    raise ExportError(f"{fmt.value} is not a video format.")


class FrameEncoder:
    """Pipes RGB frames into ffmpeg, which encodes them to ``target``."""

    def __init__(self, target: Path, fmt: ExportFormat, size: tuple[int, int], fps: Fraction,
                 crf: int | None = None, title: str = "") -> None:
        self.target = target
        self.size = size
        self.frames = 0
        width, height = size
        if fmt in (ExportFormat.MP4, ExportFormat.WEBM) and (width % 2 or height % 2):
            raise ExportError(f"{fmt.value} needs an even width and height, not {width}x{height}.")
        meta = ["-metadata", f"title={title}"] if title and fmt != ExportFormat.GIF else []
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in __exit__
        args = [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{width}x{height}", "-framerate", fps_arg(fps),
                "-i", "pipe:0", *encoder_args(fmt, crf), *meta, str(target)]
        try:
            self._process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                             stderr=self._log)
        except OSError:
            self._log.close()
            raise

    def write(self, frame: np.ndarray) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(np.ascontiguousarray(frame, dtype=np.uint8).data)
        except BrokenPipeError:
            self._process.wait()
            check_exit(self._process.returncode or 1, self._log, self.target, "write")
            raise
        self.frames += 1

    def finish(self) -> None:
        """Close the pipe and wait for ffmpeg; raise if it failed."""
        stdin = self._process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError):
            stdin.close()
        self._process.wait()
        check_exit(self._process.returncode, self._log, self.target, "write")

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


def decode_frames(path: Path, size: tuple[int, int], source_size: tuple[int, int]) -> Iterator[np.ndarray]:
    """RGB frames of ``path`` at ``size``: scaled to fit and letterboxed (black bars) when
    the clip's own size differs."""
    width, height = size
    args = [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-nostdin", "-i", str(path), "-map", "0:v:0"]
    if source_size != size:
        args += ["-vf", f"scale={width}:{height}:force_original_aspect_ratio=decrease:flags=bicubic,"
                        f"pad={width}:{height}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1"]
    args += ["-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]
    frame_bytes = width * height * 3
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, bufsize=frame_bytes)
        try:
            stdout = process.stdout
            assert stdout is not None
            while True:
                data = stdout.read(frame_bytes)
                if len(data) < frame_bytes:
                    break
                yield np.frombuffer(data, dtype=np.uint8).reshape(height, width, 3)
            process.wait()
            if process.returncode != 0:
                raise ExportError(f"Can't decode {path}: {_tail(log) or f'exit status {process.returncode}'}.")
        finally:
            _kill(process)
            if process.stdout:
                process.stdout.close()


def run_with_progress(args: list[str], target: Path, total_seconds: float, progress: ProgressCallback,
                      cancelled: CancelCheck, total_steps: int, what: str = "write") -> None:
    """Run ffmpeg (``args`` without the executable), reporting its ``-progress`` output and
    killing it as soon as ``cancelled()`` says so."""
    command = [ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-nostdin", "-nostats", "-y",
               "-progress", "pipe:1", *args]
    with tempfile.TemporaryFile() as log:
        try:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        except OSError as error:
            raise os_error(error, target) from None
        try:
            assert process.stdout is not None
            for line in process.stdout:
                if cancelled():
                    raise Cancelled()
                key, _, value = line.strip().partition("=")
                if key == "out_time_us" and value.isdigit() and total_seconds > 0:
                    done = min(1.0, int(value) / 1e6 / total_seconds)
                    progress(Progress(round(done * total_steps), total_steps, "joining clips (stream copy)"))
            process.wait()
            check_exit(process.returncode, log, target, what)
        finally:
            _kill(process)
            if process.stdout:
                process.stdout.close()


def is_disk_full(error: OSError) -> bool:
    return error.errno in DISK_FULL_ERRNOS
