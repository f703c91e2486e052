"""Save a copy (File › Save a copy) writes a bundle into a hidden scratch folder beside the new
project, then unpacks it. A studio killed (-9) while it copied left that folder, with a zip as
big as the project, for good. The next copy into the same place now removes the one a dead
studio left, never one a live studio still writes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from stop_midway import reaped  # tests/ is on sys.path

from studio.storage import Project

MEDIA_BYTES = 48 * 1024 * 1024
SCRATCH = ".kamishibai-copy-"
COPY = ("import sys; from pathlib import Path; from studio.storage import Project; "
        "from studio.ui.session import save_copy; "
        "save_copy(Project.open(Path(sys.argv[1]), read_only=True), sys.argv[2]).close()")


def _scratch(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(SCRATCH))


def _copy(source: Path, dest: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.Popen([sys.executable, "-c", COPY, str(source), str(dest)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _stop_while_bundling(process: subprocess.Popen[bytes], folder: Path, sig: signal.Signals,
                         others: tuple[Path, ...] = ()) -> Path:
    """Send ``sig`` to the copy ``process`` once its scratch folder (not one of ``others``)
    holds part of its bundle; returns that folder."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for scratch in (p for p in _scratch(folder) if p not in others):
            if sum(p.stat().st_size for p in scratch.iterdir() if p.is_file()) > 64 * 1024:
                process.send_signal(sig)
                return scratch
        assert process.poll() is None, "the copy ended before it could be stopped"
        time.sleep(0.005)
    raise AssertionError("the copy's scratch folder never appeared")


def test_the_next_copy_removes_what_a_killed_one_left(tmp_path: Path) -> None:
    Project.create(tmp_path / "story").close()
    (tmp_path / "story.kamishibai" / "media" / "noise.bin").write_bytes(os.urandom(MEDIA_BYTES))
    copies = tmp_path / "copies"
    copies.mkdir()
    with reaped(_copy(tmp_path / "story.kamishibai", copies / "one")) as killed:
        left = _stop_while_bundling(killed, copies, signal.SIGKILL)
    assert left.is_dir()

    with reaped(_copy(tmp_path / "story.kamishibai", copies / "two")) as paused:
        live = _stop_while_bundling(paused, copies, signal.SIGSTOP, others=(left,))
        again = _copy(tmp_path / "story.kamishibai", copies / "three")
        assert again.wait(timeout=180) == 0, again.stderr.read() if again.stderr else ""
        assert not left.exists(), "the killed copy's scratch folder stayed"
        assert live.is_dir(), "the scratch folder of a copy still being made was removed"
        paused.send_signal(signal.SIGCONT)
        assert paused.wait(timeout=180) == 0
    assert _scratch(copies) == []
    for name in ("two", "three"):
        with Project.open(copies / f"{name}.kamishibai", read_only=True) as made:
            assert made.name == name
