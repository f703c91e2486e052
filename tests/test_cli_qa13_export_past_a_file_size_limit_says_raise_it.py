"""`kamishibai export` past a file-size limit (``ulimit -f``) said "The disk is full (or a
file size limit was reached)" with the hint "Free some space or choose another folder", which
does nothing for a limit. It now says the limit was reached and how to raise it, as the
project's own writes do; a full disk keeps its own words, and a file too large for the file
system (EFBIG with no limit set) says to choose another disk."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from studio.export.errors import os_error
from studio.storage.errors import file_size_limited
from tests.user_limits import two_turn_project, under_a_file_size_limit

LIMIT = 32 * 1024
"""Room for the project's own small files, not for a video of it."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return two_turn_project(tmp_path)


def test_an_export_past_the_file_size_limit_says_to_raise_it(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    done = under_a_file_size_limit(["export", str(project), "--out", str(out / "episode.mp4"), "--reencode", "--quiet"],
                                   LIMIT)

    assert done.returncode == 1, done.stderr
    assert "file-size limit (ulimit -f) was reached" in done.stderr, done.stderr
    assert "ulimit -f unlimited" in done.stderr, done.stderr
    assert "Free some space" not in done.stderr and "disk is full" not in done.stderr, done.stderr
    assert list(out.iterdir()) == []


def test_a_full_disk_and_a_file_too_large_for_the_file_system_say_what_helps(tmp_path: Path) -> None:
    if file_size_limited():
        pytest.skip("the tests run under a file-size limit: EFBIG is read as that limit")
    target = tmp_path / "episode.mp4"

    full = os_error(OSError(errno.ENOSPC, "No space left on device", str(target)), target)
    too_large = os_error(OSError(errno.EFBIG, "File too large", str(target)), target)

    assert "disk is full" in full.message and "Free some space" in full.hint, full
    assert "ulimit" not in full.message + full.hint, full
    assert "larger than the file system" in too_large.message and "another disk" in too_large.hint, too_large
    assert "ulimit" not in too_large.message + too_large.hint, too_large
