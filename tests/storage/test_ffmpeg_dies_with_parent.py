"""ffmpeg started through ``setpriv --pdeathsig KILL`` where it can be (so that a killed
export leaves no encoder behind), and exactly as before where it can't: no ``setpriv`` on
the PATH, or one too old for ``--pdeathsig``."""

from __future__ import annotations

import os
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from studio.storage import ffmpeg, media
from tests.process_state import running


@pytest.fixture
def fresh_check() -> Iterator[None]:
    """The cached setpriv check made again under the test's PATH, and again after it."""
    ffmpeg._dies_with_parent.cache_clear()
    yield
    ffmpeg._dies_with_parent.cache_clear()


def _frames(count: int = 6) -> np.ndarray:
    return np.full((count, 32, 48, 3), 90, dtype=np.uint8)


def _round_trip(folder: Path) -> None:
    """Encode, probe and decode a clip: every way this module starts ffmpeg but the run."""
    path = folder / "clip.mp4"
    media.write_clip(path, _frames(), 8.0)
    assert ffmpeg.probe(path).frames == 6
    assert len(list(ffmpeg.decode_frames(path, (48, 32)))) == 6
    copy = folder / "copy.mp4"
    ffmpeg.run_with_progress(["-i", str(path), "-c", "copy", str(copy)], copy, 0.75, lambda _s: None, lambda: False)
    assert ffmpeg.probe(copy).frames == 6


def test_without_setpriv_ffmpeg_starts_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 fresh_check: None) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # ffmpeg is named by its full path: only setpriv goes missing
    assert not ffmpeg.dies_with_parent()
    assert ffmpeg._command(["ffmpeg", "-version"]) == ["ffmpeg", "-version"]
    _round_trip(tmp_path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a shell script as setpriv")
def test_a_setpriv_without_pdeathsig_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 fresh_check: None) -> None:
    """util-linux before 2.33: ``setpriv: unrecognized option '--pdeathsig'``, exit status 1."""
    folder = tmp_path / "bin"
    folder.mkdir()
    old = folder / "setpriv"
    old.write_text("#!/bin/sh\necho \"setpriv: unrecognized option '$1'\" >&2\nexit 1\n")
    old.chmod(old.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(folder))
    assert not ffmpeg.dies_with_parent()
    _round_trip(tmp_path)


needs_setpriv = pytest.mark.skipif(not ffmpeg.dies_with_parent(), reason="no setpriv with --pdeathsig here")


@needs_setpriv
def test_with_setpriv_every_ffmpeg_works_as_before(tmp_path: Path) -> None:
    assert Path(ffmpeg._command(["ffmpeg"])[0]).name == "setpriv"
    _round_trip(tmp_path)


def _wait_for_ffmpeg(pid: int) -> None:
    deadline = time.monotonic() + 10
    while "ffmpeg" not in os.path.basename(os.readlink(f"/proc/{pid}/exe")):
        assert time.monotonic() < deadline, "setpriv never became ffmpeg"
        time.sleep(0.01)


@needs_setpriv
def test_an_encoder_dies_with_the_thread_that_started_it(tmp_path: Path) -> None:
    """What the kernel does (and why every ffmpeg must be waited for on the thread that
    started it): the thread ends without closing its encoder, and the encoder is killed."""
    started: list[ffmpeg.FrameEncoder] = []

    def start() -> None:
        encoder = ffmpeg.FrameEncoder(tmp_path / "left.mp4", (48, 32), 8, ffmpeg.h264_args(23))
        encoder.write(_frames(1)[0])
        started.append(encoder)  # left open: only the thread's end can stop it
        _wait_for_ffmpeg(encoder._process.pid)  # setpriv has set the signal once it has become ffmpeg

    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
    (encoder,) = started
    try:
        pid = encoder._process.pid
        deadline = time.monotonic() + 5
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not running(pid), "ffmpeg outlived the thread that started it"
        assert encoder._process.wait(timeout=5) == -9
    finally:
        encoder.__exit__(None, None, None)
