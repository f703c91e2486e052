"""Unbundling unpacks, for the paths the database names, only files under ``media/``; and a
destination that is a dangling link is refused up front.

QA: a bundle whose take named ``project.db`` as its clip failed after unpacking everything with
"Can't unpack ... : File exists." (the database was unpacked a second time), and one that
named the manifest got ``kamishibai-bundle.json`` unpacked into the new project folder. A
destination that was a dangling link passed the "already exists" check and the unpack failed
at the very end with "Not a directory."
"""

from __future__ import annotations

import os
import sqlite3
import zipfile
from pathlib import Path

import pytest

from studio.storage.bundle import MANIFEST, BundleError, export_bundle, import_bundle
from studio.storage.project import DB_NAME
from tests.storage.bundle_setup import project_with_one_take, relist


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    with project_with_one_take(tmp_path / "source") as project:
        return export_bundle(project, tmp_path / "story.zip")


def _naming_as_clip(bundle: Path, clip_path: str, out: Path) -> Path:
    """``bundle`` rewritten so that take t1's clip is ``clip_path``."""
    scratch = out.with_suffix(".db")
    with zipfile.ZipFile(bundle) as archive:
        scratch.write_bytes(archive.read(DB_NAME))
        with sqlite3.connect(scratch) as conn:
            conn.execute("UPDATE takes SET clip_path = ? WHERE id = 't1'", (clip_path,))
        conn.close()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as rewritten:
            for item in archive.infolist():
                data = scratch.read_bytes() if item.filename == DB_NAME else archive.read(item)
                rewritten.writestr(item.filename, data)
    return relist(out)


def test_a_take_naming_the_database_as_its_clip_unpacks(bundle: Path, tmp_path: Path) -> None:
    crafted = _naming_as_clip(bundle, DB_NAME, tmp_path / "crafted.zip")
    with import_bundle(crafted, tmp_path / "copy") as copy:
        assert copy.tree.takes["t1"].clip_path == DB_NAME
        assert any("skipped media/takes/t1/clip.mp4" in problem for problem in copy.problems), copy.problems
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_take_naming_the_manifest_does_not_unpack_it(bundle: Path, tmp_path: Path) -> None:
    crafted = _naming_as_clip(bundle, MANIFEST, tmp_path / "crafted.zip")
    with import_bundle(crafted, tmp_path / "copy") as copy:
        assert not (copy.path / MANIFEST).exists(), "only media files are unpacked for a take"
        assert any(f"{MANIFEST} is named by the project but is not in the bundle" in problem
                   for problem in copy.problems), copy.problems


def test_a_dangling_link_as_destination_is_refused_before_unpacking(bundle: Path, tmp_path: Path) -> None:
    link = tmp_path / "copy.kamishibai"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(BundleError) as raised:
        import_bundle(bundle, tmp_path / "copy")
    assert "already exists" in raised.value.message and "link" in raised.value.message, raised.value.message
    assert os.readlink(link) == str(tmp_path / "nowhere") and not (tmp_path / "nowhere").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no work folder is left"
