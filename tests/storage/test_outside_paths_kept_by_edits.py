"""A take whose media folder leads outside the project for a while (``media/takes`` moved
to another disk and linked back, say) opens with its paths refused, for that opening only:
an edit that rewrites the take's row (an edited instruction marks it stale; undo writes it
back) must keep the paths stored, so that the take has its clip again once the folder is
back inside the project. It used to write the refused (empty) paths over them, for good."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, StateDeltas, Take
from studio.core.commands import EditInstruction
from studio.storage import Project

FILES = ("clip.mp4", "poster.png", "representation.safetensors")


RUN = "Character: Qiqi; Motion: run; Background: day town"


def make_project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, RUN, node_id="n1"))
        folder = project.take_media_dir("t1")
        paths = {}
        for name in FILES:
            with project.writing(f"{folder}/{name}") as tmp:
                tmp.write_bytes(b"media")
            paths[name] = f"{folder}/{name}"
        project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", clip_path=paths["clip.mp4"],
                                   poster_path=paths["poster.png"],
                                   representation_path=paths["representation.safetensors"],
                                   instruction_raw=RUN, deltas=StateDeltas(-2, 0, 1))))
        return project.path


def stored_paths(path: Path) -> tuple[str, str, str]:
    conn = sqlite3.connect(path / "project.db")
    try:
        row = conn.execute("SELECT clip_path, poster_path, representation_path FROM takes WHERE id='t1'").fetchone()
    finally:
        conn.close()
    return tuple(row)  # type: ignore[return-value]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
@pytest.mark.parametrize("undo", [False, True])
def test_an_edit_keeps_the_paths_refused_at_opening(tmp_path: Path, undo: bool) -> None:
    path = make_project(tmp_path)
    before = stored_paths(path)
    assert all(before)
    elsewhere = tmp_path / "other-disk" / "takes"
    elsewhere.parent.mkdir()
    shutil.move(path / "media" / "takes", elsewhere)
    os.symlink(elsewhere, path / "media" / "takes")

    with Project.open(path) as project:
        take = project.tree.takes["t1"]
        assert take.clip_path == "" and take.poster_path == "" and take.representation_path == ""
        assert any("outside the project" in problem for problem in project.problems)
        project.apply(EditInstruction("n1", "Character: Qiqi; Motion: jump; Background: day town"))
        assert project.tree.takes["t1"].stale
        if undo:
            project.undo()
        assert stored_paths(path) == before, "the edit wrote the refused paths over the stored ones"

    os.unlink(path / "media" / "takes")
    shutil.move(elsewhere, path / "media" / "takes")
    with Project.open(path) as project:
        take = project.tree.takes["t1"]
        assert (take.clip_path, take.poster_path, take.representation_path) == before
        assert take.stale is not undo
        assert project.problems == []
        assert project.missing_media(take) == []
