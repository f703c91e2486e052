"""``export_bundle`` walks the media folder (leaving out links), then packs each file it found:
a file replaced by a link to a file outside the project between the walk and the packing is
left out, its target never read into the bundle. Ordinary projects bundle and unbundle as
before, every media file read back byte for byte."""

from __future__ import annotations

import os
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from studio.core import AddTake, AddTurn, Take, TakeStatus
from studio.storage import Project, bundle
from studio.storage.bundle import MANIFEST, export_bundle, import_bundle
from studio.storage.media import write_clip, write_poster

CLIP = "media/takes/t1/clip.mp4"
POSTER = "media/takes/t1/poster.png"
SECRET = b"the neighbour's diary, which no bundle may hold"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    project = Project.create(tmp_path / "story")
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town", node_id="n1"))
    frames = np.full((6, 64, 96, 3), 120, dtype=np.uint8)
    write_clip(project.resolve(CLIP), frames, 8)
    write_poster(project.resolve(POSTER), frames[0])
    project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", clip_path=CLIP, poster_path=POSTER,
                               status=TakeStatus.DONE)))
    yield project
    project.close()


def _swap_after_walk(project: Project, monkeypatch: pytest.MonkeyPatch, target: Path) -> list[int]:
    """Make the walk that lists the files to pack replace the poster with a link to ``target``
    right after it returns (the walk before packing is the second; the first only refuses)."""
    walks: list[int] = []
    walk = bundle._media_files

    def walk_then_swap(root: Path) -> list[Path]:
        found = walk(root)
        walks.append(len(found))
        if len(walks) == 2:
            assert root / POSTER in found
            (root / POSTER).unlink()
            os.symlink(target, root / POSTER)
        return found

    monkeypatch.setattr(bundle, "_media_files", walk_then_swap)
    return walks


def test_a_file_swapped_for_a_link_after_the_walk_is_left_out(project: Project, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SECRET)
    walks = _swap_after_walk(project, monkeypatch, secret)
    out = export_bundle(project, tmp_path / "story.zip")
    assert walks == [2, 2]
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        held = b"".join(archive.read(name) for name in names)
        manifest = archive.read(MANIFEST).decode()
    assert SECRET not in held and out.read_bytes().find(SECRET) == -1
    assert POSTER not in names and POSTER not in manifest
    assert CLIP in names and archive_bytes(out, CLIP) == (project.path / CLIP).read_bytes()


def test_the_same_swap_with_a_real_file_is_packed(project: Project, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: a file of the project put in the poster's place is what gets packed."""
    secret = tmp_path / "secret.txt"
    secret.write_bytes(SECRET)
    walk = bundle._media_files

    def walk_then_replace(root: Path) -> list[Path]:
        found = walk(root)
        (root / POSTER).write_bytes(SECRET)
        return found

    monkeypatch.setattr(bundle, "_media_files", walk_then_replace)
    out = export_bundle(project, tmp_path / "story.zip")
    assert archive_bytes(out, POSTER) == SECRET


def archive_bytes(bundle_file: Path, name: str) -> bytes:
    with zipfile.ZipFile(bundle_file) as archive:
        return archive.read(name)


def test_an_ordinary_project_bundles_and_unbundles(project: Project, tmp_path: Path) -> None:
    out = export_bundle(project, tmp_path / "story.zip")
    with zipfile.ZipFile(out) as archive:
        info = archive.getinfo(POSTER)
    mtime = os.stat(project.path / POSTER).st_mtime
    assert info.file_size == (project.path / POSTER).stat().st_size
    assert info.date_time[:3] == tuple(time.localtime(mtime)[:3])
    copy = import_bundle(out, tmp_path / "copy")
    try:
        for rel in (CLIP, POSTER):
            assert (copy.path / rel).read_bytes() == (project.path / rel).read_bytes(), rel
        assert copy.tree.selected_take("n1") is not None
    finally:
        copy.close()
