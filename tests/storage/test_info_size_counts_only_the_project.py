"""``info``'s size is the project's own files: a link inside the project (to a large file,
or to a folder elsewhere) adds nothing, as a bundle leaves it out too. It used to follow
links to files, so that a link to a film beside the project (or to ``/proc/kcore``) made a
small project look gigabytes (or terabytes) large."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.core import AddTurn
from studio.storage import Project


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_links_add_nothing_to_the_size(tmp_path: Path) -> None:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town"))
        with project.writing("media/locations/own.png") as tmp:
            tmp.write_bytes(b"x" * 1000)
        own = project.info()["size_bytes"]
        assert own >= 1000

        film = tmp_path / "film.mp4"
        film.write_bytes(b"f" * 5_000_000)
        folder = tmp_path / "elsewhere"
        folder.mkdir()
        (folder / "big.bin").write_bytes(b"b" * 3_000_000)
        (project.path / "media" / "film.mp4").symlink_to(film)
        (project.path / "media" / "elsewhere").symlink_to(folder)
        (project.path / "media" / "nowhere").symlink_to(tmp_path / "missing")
        (project.path / "media" / "loop").symlink_to(project.path)

        info = project.info()
        assert info["size_bytes"] == own
        assert info["size_bytes"] < 1_000_000
