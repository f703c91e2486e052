"""A process killed while it writes a media file (a picture or scene clip being imported, a
take's file) leaves the file's hidden temporary twin (``.NAME.XXXXXXXX.part.png``) in
``media/``: nothing names it and nothing finishes it. Opening the project for writing
removes those left long enough to be abandoned, and says so; they used to stay for good
(a large import killed a few times left hundreds of megabytes nobody could see)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.project import PARTIAL_MIN_AGE_S

WRITE_AND_HANG = textwrap.dedent("""
    import sys, time
    from studio.storage import Project
    project = Project.open(sys.argv[1])
    with project.writing("media/locations/sunset-0123456789.png") as tmp:
        with open(tmp, "wb") as handle:
            handle.write(b"half a picture" * 10000)
            handle.flush()
            print(tmp.name, flush=True)
            time.sleep(600)
""")


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_opening_for_writing_removes_abandoned_partial_media(tmp_path: Path) -> None:
    Project.create(tmp_path / "p").close()
    path = tmp_path / "p.kamishibai"
    child = subprocess.Popen([sys.executable, "-c", WRITE_AND_HANG, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    name = child.stdout.readline().strip()
    child.send_signal(signal.SIGKILL)
    child.wait()
    locations = path / "media" / "locations"
    left = locations / name
    assert left.is_file(), "the killed write left no temporary file: the test proves nothing"
    age(left, PARTIAL_MIN_AGE_S + 60)

    fresh = locations / ".forest-0123456789.0badcafe.part.png"  # an encoder may still write it
    fresh.write_bytes(b"still being written")
    keep = locations / "holiday.part.png"  # the user's own file, not one of ours
    keep.write_bytes(b"mine")
    age(keep, PARTIAL_MIN_AGE_S + 60)
    outside = tmp_path / "outside.bin"
    outside.write_bytes(b"not the project's")
    link = locations / ".linked.0badcafe.part"
    link.symlink_to(outside)
    age(link, PARTIAL_MIN_AGE_S + 60)

    with Project.open(path, read_only=True) as reader:  # a reader changes nothing
        assert reader.problems == []
    assert left.is_file()

    with Project.open(path) as project:
        assert not left.exists()
        assert fresh.is_file() and keep.is_file() and link.is_symlink() and outside.is_file()
        assert len(project.problems) == 1
        assert "removed 1 half-written media file" in project.problems[0]
    with Project.open(path) as project:
        assert project.problems == []
