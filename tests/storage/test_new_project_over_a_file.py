"""Making a project where a file (or a link that leads nowhere) has the folder's name: `new`
said "file.kamishibai already exists and is not empty" of an empty file, and "Can't create
the project dang.kamishibai: Not a directory." of a dangling link. Both now say what is
there, and leave it as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.errors import ProjectFileError


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("content", [b"", b"notes"])
def test_a_file_of_the_folder_s_name_is_named_as_a_file(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "story.kamishibai").write_bytes(content)
    for command in (("new", str(tmp_path / "story")), ("sample", str(tmp_path / "story"), "--no-generate")):
        done = kamishibai(*command)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert "is a file, not a folder" in done.stderr, done.stderr
        assert "not empty" not in done.stderr
    assert (tmp_path / "story.kamishibai").read_bytes() == content


def test_a_dangling_link_of_the_folder_s_name_is_named_as_a_link(tmp_path: Path) -> None:
    link = tmp_path / "story.kamishibai"
    os.symlink(tmp_path / "gone", link)
    with pytest.raises(ProjectFileError, match="a link that leads nowhere"):
        Project.create(tmp_path / "story")
    assert link.is_symlink() and os.readlink(link) == str(tmp_path / "gone")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["story.kamishibai"], "no work folder is left"
