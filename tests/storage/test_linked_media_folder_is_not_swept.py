"""A project whose ``media/`` is a link to a folder elsewhere (moved to another disk and
linked back, or a crafted project) used to lose files outside the project when opened for
writing: the sweep of half-written media walked through the link and removed the
``.NAME.XXXXXXXX.part`` files it found there, and the sweep of unused imports removed the
imported pictures there, which no row can name (paths through the link lead outside the
project, so they are refused). Opening never removes anything through a linked media folder."""

from __future__ import annotations

import os
import time
from pathlib import Path

from studio.storage import Project
from studio.storage.project import PARTIAL_MIN_AGE_S
from studio.storage.unused_media import UNUSED_MIN_AGE_S


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def test_opening_for_writing_removes_nothing_through_a_linked_media_folder(tmp_path: Path) -> None:
    Project.create(tmp_path / "p").close()
    folder = tmp_path / "p.kamishibai"
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "characters").mkdir(parents=True)
    partial = elsewhere / ".clip.0badcafe.part.mp4"  # looks like an abandoned write of ours
    partial.write_bytes(b"someone else's file")
    imported = elsewhere / "characters" / "qiqi-front-0123456789.png"  # looks like an unused import
    imported.write_bytes(b"a picture")
    age(partial, PARTIAL_MIN_AGE_S + 60)
    age(imported, UNUSED_MIN_AGE_S + 60)
    (folder / "media").rmdir()
    (folder / "media").symlink_to(elsewhere, target_is_directory=True)

    with Project.open(folder) as project:
        assert not any("removed" in problem for problem in project.problems), project.problems

    assert partial.read_bytes() == b"someone else's file"
    assert imported.read_bytes() == b"a picture"
