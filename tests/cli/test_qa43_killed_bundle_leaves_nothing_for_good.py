"""A `kamishibai bundle` killed with -9 left its hidden temporary zip (``.b.XXXXXXXX.part.zip``,
as big as the bundle) beside the output for good: every killed run added one. The next bundle
into that folder now removes those a dead bundle left, and only those: one still written by a
live bundle stays (it finishes), and a user's file that merely has such a name is kept.

Bundle names of 241 to 255 bytes, which the file system takes (and export writes), were
refused ("Can't write the bundle bbbb…b.zip: File name too long.") because the temporary
name is 15 bytes longer; they are written now."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from stop_midway import reaped  # tests/ is on sys.path

from studio.storage.atomic import is_temp_name

MEDIA_BYTES = 48 * 1024 * 1024
"""A file of random bytes in the project's media: deflating it keeps a bundle busy long enough
to be stopped while it writes."""


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          cwd=cwd)


def _start_bundle(work: Path, out: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "studio", "bundle", "story", out], cwd=work,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _temporaries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if is_temp_name(p.name))


def _stop_while_writing(process: subprocess.Popen[bytes], folder: Path, sig: signal.Signals) -> Path:
    """Send ``sig`` to the bundle ``process`` once its temporary zip holds data; returns it."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = [p for p in _temporaries(folder) if p.stat().st_size > 64 * 1024]
        if found:
            process.send_signal(sig)
            return found[0]
        assert process.poll() is None, "the bundle ended before it could be stopped"
        time.sleep(0.005)
    raise AssertionError("the bundle's temporary file never appeared")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    done = kamishibai("new", "story", cwd=folder)
    assert done.returncode == 0, done.stderr
    (folder / "story.kamishibai" / "media" / "noise.bin").write_bytes(os.urandom(MEDIA_BYTES))
    (folder / "out").mkdir()
    return folder


def test_the_next_bundle_removes_what_a_killed_one_left(work: Path) -> None:
    out = work / "out"
    users = out / ".holiday.0123abcd.part.zip"  # a user's file with such a name: not the studio's
    users.write_bytes(b"PK\x03\x04 my own archive, not a bundle")
    with reaped(_start_bundle(work, "out/b.zip")) as killed:
        left = _stop_while_writing(killed, out, signal.SIGKILL)
    assert left.exists() and not (out / "b.zip").exists()

    done = kamishibai("bundle", "story", "out/c.zip", cwd=work)
    assert done.returncode == 0, done.stderr
    assert not left.exists(), "the killed bundle's temporary zip stayed"
    assert _temporaries(out) == [users], "only the user's file stays"
    assert users.read_bytes().startswith(b"PK\x03\x04 my own archive")
    with zipfile.ZipFile(out / "c.zip") as bundle:
        assert bundle.testzip() is None and "project.db" in bundle.namelist()


def test_a_bundle_still_being_written_is_left_alone(work: Path) -> None:
    out = work / "out"
    with reaped(_start_bundle(work, "out/a.zip")) as paused:
        writing = _stop_while_writing(paused, out, signal.SIGSTOP)  # alive, not writing for now
        done = kamishibai("bundle", "story", "out/c.zip", cwd=work)
        assert done.returncode == 0, done.stderr
        assert writing.exists(), "the temporary zip of a live bundle was removed"
        paused.send_signal(signal.SIGCONT)
        assert paused.wait(timeout=180) == 0
    assert _temporaries(out) == []
    for name in ("a.zip", "c.zip"):
        with zipfile.ZipFile(out / name) as bundle:
            assert bundle.testzip() is None and "noise.bin" in " ".join(bundle.namelist())


@pytest.mark.parametrize("name", ["b" * 236 + ".zip", "b" * 237 + ".zip", "b" * 251 + ".zip",
                                  "物語" * 41 + "の.zip"],  # 249 bytes of three-byte characters
                         ids=["240-bytes", "241-bytes", "255-bytes", "253-bytes-japanese"])
def test_every_name_the_file_system_takes_is_written(tmp_path: Path, name: str) -> None:
    assert len(os.fsencode(name)) <= 255
    done = kamishibai("new", "story", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = kamishibai("bundle", "story", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / name) as bundle:
        assert "project.db" in bundle.namelist()
    assert _temporaries(tmp_path) == []
