"""An export's ffmpeg dies with the export: a real ``kamishibai export`` in a child process,
its encoder found among the child's children in /proc, the child stopped, the encoder
watched.

Fed through a pipe, the encoder took the closed pipe for the end of its input and went on
encoding alone: measured on these noise clips (the encoder's slowest kind of picture), a
webm encoder outlived its killed export by 3 to 6 seconds, a GIF's by 6. Stopped by SIGTERM
or SIGHUP the export now kills it and removes its work folder before it ends. Killed
outright (SIGKILL), the export runs no code: on Linux the kernel ends its ffmpeg children
with it (``PR_SET_PDEATHSIG``, set where studio.storage.ffmpeg starts them)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from studio.storage.media import write_clip
from tests.process_state import running

from .helpers import build

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN = 1.0
"""Seconds the encoder may outlive its export (the old behaviour: 3 s and more)."""


@dataclass(frozen=True)
class NoiseStory:
    path: Path
    leaf: str


@pytest.fixture(scope="module")
def noise_story(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NoiseStory]:
    """Two turns of 80 frames of 640 x 480 noise: a webm of them takes seconds to encode."""
    fixture = build(tmp_path_factory.mktemp("noise"), turns=2, frames=[80, 80], sizes=[(640, 480)] * 2)
    rng = np.random.default_rng(7)
    for node in fixture.nodes:
        (take,) = fixture.project.tree.takes_of(node)
        write_clip(fixture.project.resolve(take.clip_path), rng.integers(0, 256, (80, 480, 640, 3), dtype=np.uint8),
                   fixture.fps)
    fixture.project.close()
    yield NoiseStory(fixture.project.path, fixture.leaf)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    return found


def _is_ffmpeg(pid: int) -> bool:
    try:
        return "ffmpeg" in os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return False


def _is_encoder(pid: int) -> bool:
    """An ffmpeg fed frames through its stdin (studio.storage.ffmpeg.FrameEncoder)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            args = handle.read().split(b"\0")
    except OSError:
        return False
    return b"pipe:0" in args and b"rawvideo" in args


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _export_until_encoding(story: NoiseStory, out: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``kamishibai export`` of the story into ``out`` in a child process, and its encoder's
    pid once it has been taking frames for half a second."""
    # SIGHUP at its default, as in a terminal's session: a run under nohup hands its ignore down
    code = ("import signal, sys; signal.signal(signal.SIGHUP, signal.SIG_DFL); from studio.cli import main; "
            f"sys.exit(main(['export', {str(story.path)!r}, '--leaf', {story.leaf!r}, '--out', {str(out)!r}, '-q']))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while child.poll() is None and time.monotonic() < deadline:
        encoder = next((pid for pid in _children(child.pid) if _is_encoder(pid)), None)
        if encoder is not None:
            time.sleep(0.5)  # frames in the encoder: without us it would go on with them
            assert child.poll() is None, "the export ended before it could be stopped"
            return child, encoder
        time.sleep(0.01)
    child.kill()
    child.wait()
    pytest.fail(f"no encoder started (the export ended with {child.returncode})")


def _stop(child: subprocess.Popen[bytes], encoder: int, signum: int) -> None:
    child.send_signal(signum)
    try:
        child.wait(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise


def _reap(child: subprocess.Popen[bytes], encoder: int) -> None:
    """Whatever a failed test left running: the export and its encoder (ours, both)."""
    if child.poll() is None:
        child.kill()
        child.wait()
    if running(encoder):
        with contextlib.suppress(OSError):
            os.kill(encoder, signal.SIGKILL)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_terminated_export_ends_its_ffmpeg_and_leaves_nothing(noise_story: NoiseStory, tmp_path: Path,
                                                                  signum: signal.Signals) -> None:
    out = tmp_path / "episode.webm"
    child, encoder = _export_until_encoding(noise_story, out)
    try:
        _stop(child, encoder, signum)
        assert child.returncode == -signum  # ended by the signal, as without the clean-up
        assert _gone_within(encoder, GONE_WITHIN), "ffmpeg outlived the export"
        # nothing under the final name, and no work folder left for the next export to sweep
        assert sorted(path.name for path in tmp_path.iterdir()) == []
    finally:
        _reap(child, encoder)


def test_a_killed_export_takes_every_ffmpeg_child_with_it(noise_story: NoiseStory, tmp_path: Path) -> None:
    """SIGKILL runs no code in the export: its encoder (and any decoder feeding it) must still
    end at once, not finish the episode alone for seconds."""
    child, encoder = _export_until_encoding(noise_story, tmp_path / "episode.webm")
    ffmpegs = {encoder, *(pid for pid in _children(child.pid) if _is_ffmpeg(pid))}
    try:
        child.kill()
        child.wait(timeout=30)
        survivors = [pid for pid in ffmpegs if not _gone_within(pid, GONE_WITHIN)]
        assert survivors == [], "ffmpeg outlived the killed export"
    finally:
        _reap(child, encoder)
        for pid in ffmpegs - {encoder}:
            if running(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
