"""``unbundle`` takes an empty folder as its destination, as ``new`` and ``import-demo`` do.

A user who made the folder first (in a file manager, or ``mkdir``) was told it "already
exists"; a folder that holds anything is still refused, and one given files while the bundle
unpacks is left as it is, with nothing of the bundle in or beside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage import bundle as bundles
from studio.storage.bundle import BundleError, export_bundle, import_bundle
from tests.storage.bundle_setup import CLIP_BYTES, CLIP_PATH, project_with_one_take


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    with project_with_one_take(tmp_path / "story") as project:
        return export_bundle(project, tmp_path / "story.zip")


def test_an_empty_folder_becomes_the_project(bundle: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy.kamishibai"
    dest.mkdir()
    with import_bundle(bundle, dest) as copy:
        assert copy.path == dest and "n1" in copy.tree.nodes
    with Project.open(dest, read_only=True) as reopened:
        assert (reopened.path / CLIP_PATH).read_bytes() == CLIP_BYTES
        assert reopened.tree.takes["t1"].clip_path == CLIP_PATH


def test_a_folder_holding_anything_is_refused(bundle: Path, tmp_path: Path) -> None:
    dest = tmp_path / "copy.kamishibai"
    dest.mkdir()
    (dest / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(BundleError, match="already exists and is not empty"):
        import_bundle(bundle, dest)
    assert os.listdir(dest) == ["notes.txt"]


def test_files_put_in_while_unpacking_are_kept(bundle: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    dest = tmp_path / "copy.kamishibai"
    dest.mkdir()
    acquire = bundles.WriterLock.acquire

    def meanwhile(folder: Path) -> bundles.WriterLock:  # the last step before the rename
        (dest / "notes.txt").write_text("mine", encoding="utf-8")
        return acquire(folder)

    monkeypatch.setattr(bundles.WriterLock, "acquire", staticmethod(meanwhile))
    with pytest.raises(BundleError) as caught:
        import_bundle(bundle, dest)
    assert "already exists and is not empty" in caught.value.message, caught.value.message
    assert "Nothing was unpacked" in caught.value.hint
    assert os.listdir(dest) == ["notes.txt"]
    assert sorted(os.listdir(tmp_path)) == ["copy.kamishibai", "story.kamishibai", "story.zip"]
