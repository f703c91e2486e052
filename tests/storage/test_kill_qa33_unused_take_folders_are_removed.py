"""A take's files live in ``media/takes/ID/``. When the take's row goes for good (its turn
deleted in the window and the project closed, or a `play` stopped by Ctrl+C just after its
clip was made, which does not keep its turn), the folder used to stay forever: nothing
showed it, every bundle carried it, and each stopped `play` made the project bigger.
Opening the project for writing now removes such folders once they are old enough to be
abandoned; folders a take or an unfinished job still names, and folders holding anything
but a take's own files, stay."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from studio.core.commands import DeleteSubtree
from studio.storage import Project
from studio.storage.unused_media import UNUSED_TAKE_MIN_AGE_S


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


def age_tree(path: Path, seconds: float) -> None:
    """Make ``path`` and everything under it look ``seconds`` old."""
    then = time.time() - seconds
    for here, dirs, names in os.walk(path):
        for name in [*dirs, *names]:
            os.utime(Path(here) / name, (then, then), follow_symlinks=False)
    os.utime(path, (then, then), follow_symlinks=False)


def two_turns(tmp_path: Path) -> tuple[Path, str, str, str]:
    """A project made by real `new` and `play` commands: (folder, second turn, its take,
    first turn's take)."""
    path = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    played = kamishibai("play", str(path), "--json", "Character: Qiqi; Motion: run.", "Character: Qiqi; Motion: walk.")
    assert played.returncode == 0, played.stderr
    first, second = json.loads(played.stdout)
    return path, second["node"], second["take"], first["take"]


def delete_turn(path: Path, node_id: str) -> None:
    """Delete a turn as the window does (an undoable edit), then close without undoing it."""
    project = Project.open(path)
    try:
        project.apply(DeleteSubtree(node_id))
    finally:
        project.close()


def test_a_deleted_turns_take_folder_goes_when_the_project_is_next_opened_for_writing(tmp_path: Path) -> None:
    path, node, take, kept_take = two_turns(tmp_path)
    takes = path / "media" / "takes"
    delete_turn(path, node)
    assert (takes / take / f"take-{take}.mp4").is_file()  # the edit keeps it while it can be undone
    mine = takes / "0123456789"  # a folder named like a take's, holding a file of the user's
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    age_tree(path / "media", 2 * UNUSED_TAKE_MIN_AGE_S)

    ran = kamishibai("run-queue", str(path))  # any command that opens the project for writing

    assert ran.returncode == 0, ran.stderr
    assert not (takes / take).exists()
    assert (mine / "notes.txt").read_text() == "keep me"
    assert sorted(p.name for p in (takes / kept_take).iterdir()) == ["poster.png", "representation.safetensors",
                                                                     f"take-{kept_take}.mp4"]
    info = json.loads(kamishibai("info", "--json", str(path)).stdout)
    assert info["problems"] == [] and info["takes"] == 1
    bundled = kamishibai("bundle", str(path), str(tmp_path / "story.zip"))
    assert bundled.returncode == 0, bundled.stderr
    with zipfile.ZipFile(tmp_path / "story.zip") as archive:
        names = archive.namelist()
    assert not [name for name in names if f"/{take}/" in name or name.startswith(f"media/takes/{take}")]
    assert any(kept_take in name for name in names)


def test_a_take_folder_left_a_moment_ago_stays_until_it_is_old(tmp_path: Path) -> None:
    path, node, take, _kept = two_turns(tmp_path)
    delete_turn(path, node)
    Project.open(path).close()  # at once: an engine host may still be writing there
    assert (path / "media" / "takes" / take / f"take-{take}.mp4").is_file()
    age_tree(path / "media" / "takes" / take, 2 * UNUSED_TAKE_MIN_AGE_S)
    project = Project.open(path)
    try:
        assert any("take folder" in line for line in project.problems)
    finally:
        project.close()
    assert not (path / "media" / "takes" / take).exists()


def test_the_take_folder_of_an_unfinished_job_stays(tmp_path: Path) -> None:
    path, node, take, _kept = two_turns(tmp_path)
    delete_turn(path, node)
    project = Project.open(path)  # a job that waits to be run again still names the folder
    try:
        with project.database.transaction() as conn:
            conn.execute("UPDATE jobs SET status='interrupted' WHERE take_id=?", (take,))
    finally:
        project.close()
    age_tree(path / "media", 2 * UNUSED_TAKE_MIN_AGE_S)
    Project.open(path).close()
    assert (path / "media" / "takes" / take / f"take-{take}.mp4").is_file()


def test_a_folder_whose_files_another_take_names_stays(tmp_path: Path) -> None:
    path, node, take, kept_take = two_turns(tmp_path)
    delete_turn(path, node)
    project = Project.open(path)  # a take whose poster lies in the deleted take's folder
    try:
        with project.database.transaction() as conn:
            conn.execute("UPDATE takes SET poster_path=? WHERE id=?", (f"media/takes/{take}/poster.png", kept_take))
    finally:
        project.close()
    age_tree(path / "media", 2 * UNUSED_TAKE_MIN_AGE_S)
    Project.open(path).close()
    assert (path / "media" / "takes" / take / "poster.png").is_file()
    info = json.loads(kamishibai("info", "--json", str(path)).stdout)
    assert info["problems"] == []
