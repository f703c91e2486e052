"""SQLite keeps a project's unfinished changes beside ``project.db``, in ``project.db-wal``,
``project.db-shm`` and ``project.db-journal``. When one of them is something else (a named
pipe, a link, a folder: a crafted project, a copy made by a tool that keeps links), opening
the project used to hang for good (a named pipe as the journal: both this studio's look
for an unfinished change and SQLite itself wait on it) or fail with "unable to open
database file ... check the disk". It is now refused at once, naming the file and what it
is, for reading and for writing, and nothing is changed (a link's target least of all)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.errors import ProjectFileError

SIDES = ("project.db-journal", "project.db-wal", "project.db-shm")

OPEN = """
import sys
from studio.storage import Project
from studio.storage.errors import ProjectFileError
try:
    Project.open(sys.argv[1], read_only=sys.argv[2] == "ro").close()
    print("opened")
except ProjectFileError as error:
    print(error.message)
"""


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("made")
    Project.create(base / "story").close()
    return base / "story.kamishibai"


def _copy(made: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "copy.kamishibai"
    shutil.copytree(made, folder)
    for side in SIDES:
        (folder / side).unlink(missing_ok=True)
    return folder


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("mode", ["ro", "rw"])
def test_a_named_pipe_is_refused_without_waiting(made: Path, tmp_path: Path, side: str, mode: str) -> None:
    folder = _copy(made, tmp_path)
    os.mkfifo(folder / side)
    try:  # in a child: a blocked open holds the GIL, so no thread here could give up on it
        done = subprocess.run([sys.executable, "-c", OPEN, str(folder), mode], capture_output=True, text=True,
                              timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"opening a project whose {side} is a named pipe waited for good")
    assert f"{side} is a named pipe, not a file" in done.stdout, done


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("kind", ["link", "folder"])
@pytest.mark.parametrize("read_only", [True, False])
def test_a_link_or_folder_is_refused_by_name(made: Path, tmp_path: Path, side: str, kind: str,
                                            read_only: bool) -> None:
    folder = _copy(made, tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("not the project's")
    if kind == "link":
        (folder / side).symlink_to(victim)
    else:
        (folder / side).mkdir()
    before = sorted(os.listdir(folder))
    with pytest.raises(ProjectFileError) as caught:
        Project.open(folder, read_only=read_only)
    what = "a symbolic link" if kind == "link" else "a folder"
    assert f"{side} is {what}, not a file" in caught.value.message
    assert "Nothing was changed" in caught.value.hint
    assert sorted(os.listdir(folder)) == before
    assert victim.read_text() == "not the project's"
