"""An export never puts its file where a device, a pipe or standard output's link was.

It replaces its file by a rename: with --force, ``--out /dev/full`` or ``--out /dev/stdout``
(run as root) left a plain file in /dev in place of the device or the link."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from studio.export import export_branch
from studio.export.errors import ExportError
from studio.export.output import check_destination

from .helpers import Fixture

posix_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's /dev and /proc")


@posix_only
@pytest.mark.parametrize(("out", "said"), [
    ("/dev/full", "it is in /dev"),
    ("/dev/null", "it is in /dev"),
    ("/dev/stdout", "it is in /dev"),
    ("/dev/fd/1", "it is in /proc"),
    ("/proc/self/fd/1", "it is in /proc"),
])
def test_system_places_are_refused_before_anything_is_written(out: str, said: str) -> None:
    with pytest.raises(ExportError, match=said):
        check_destination(Path(out))


@posix_only
def test_a_link_into_dev_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "episode.srt"
    link.symlink_to("/dev/stdout")
    with pytest.raises(ExportError, match="it is in /dev"):
        check_destination(link)


@posix_only
def test_a_pipe_is_not_replaced_even_with_force(story: Fixture, tmp_path: Path) -> None:
    pipe = tmp_path / "out" / "episode.srt"
    pipe.parent.mkdir()
    os.mkfifo(pipe)
    with pytest.raises(ExportError, match="it is a pipe, not a file"):
        export_branch(story.project, story.leaf, pipe, "srt")
    assert pipe.is_fifo()


def test_dev_shm_is_an_ordinary_folder() -> None:
    if Path("/dev/shm").is_dir():
        check_destination(Path("/dev/shm/episode.mp4"))  # no error
