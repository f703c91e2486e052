"""Output redirected to a disk that can't take it. `kamishibai tree P --json > out.json` that the
disk cut short (full, or past `ulimit -f`) left half a JSON document and exit status 0: Python's
buffered output takes a large write cut short as done. A short output that fails only when
Python flushes it at exit printed a traceback ("Exception ignored ... OSError"), and one that
failed during the command said "internal error: OSError: [Errno 28]". Each now ends with exit
status 1 and a message that says the write failed for want of room."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main


def _story(tmp_path: Path, turns: int) -> Path:
    demo = tmp_path / "demo.txt"
    demo.write_text("".join(f"Character: Qiqi; Motion: run; Background: day town.\n> Qiqi: line {n}\n"
                            for n in range(turns)), encoding="utf-8")
    project = tmp_path / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(project)]) == 0
    return project


def _run_with_a_file_size_limit(limit: int, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the command with its output in ``out``, a regular file that may grow to ``limit`` bytes
    (Python ignores SIGXFSZ, so a write past it fails with EFBIG, as one on a full disk fails)."""
    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with out.open("wb") as stdout:
        return subprocess.run([sys.executable, "-m", "studio", *args], stdout=stdout, stderr=subprocess.PIPE,
                              text=True, timeout=120, preexec_fn=limited,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def test_a_json_document_cut_short_by_the_disk_fails_the_command(tmp_path: Path) -> None:
    project = _story(tmp_path, 30)
    whole = tmp_path / "whole.json"
    assert _run_with_a_file_size_limit(1 << 30, whole, "tree", str(project), "--json").returncode == 0
    assert whole.stat().st_size > 2 * 8192  # larger than Python's output buffer, written in one go

    out = tmp_path / "out.json"
    done = _run_with_a_file_size_limit(4096, out, "tree", str(project), "--json")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "kamishibai: error: A write failed: the file would grow past the file-size limit" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_a_short_output_that_fails_when_flushed_is_said_once(tmp_path: Path) -> None:
    project = _story(tmp_path, 2)
    out = tmp_path / "info.txt"
    done = _run_with_a_file_size_limit(64, out, "info", str(project))
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert done.stderr.count("kamishibai: error: A write failed") == 1, done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
def test_a_full_device_is_named_as_such_not_as_an_internal_error(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "studio", "new", str(project)], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "kamishibai: error: A write failed: no space is left on the device" in done.stderr
    assert "internal error" not in done.stderr
    assert (project / "project.db").is_file()  # what the command did stands; only its output was lost
