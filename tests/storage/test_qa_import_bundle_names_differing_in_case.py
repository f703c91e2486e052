"""Names that differ only in case, in a bundle.

QA: a project on Linux holding ``media/Notes.txt`` next to ``media/notes.txt`` (files of the
user's that no take names) bundled fine, and that bundle, made by the studio itself, was
refused as a whole on unbundling ("entry 'media/notes.txt' is there twice"), though neither
file would be unpacked. Entries that are unpacked still may not clash by case (on macOS or
Windows both would be one file), and an entry named exactly twice is still refused.
"""

from __future__ import annotations

import os
import sqlite3
import zipfile
from contextlib import closing
from pathlib import Path

import pytest

from studio.storage.bundle import BundleError, export_bundle, import_bundle
from studio.storage.project import DB_NAME
from tests.storage.bundle_setup import CLIP_BYTES, CLIP_PATH, project_with_one_take


def _source_with_case_twins(tmp_path: Path) -> Path:
    with project_with_one_take(tmp_path / "source") as project:
        (project.path / "media" / "Notes.txt").write_text("mine")
        (project.path / "media" / "notes.txt").write_text("also mine")
        return export_bundle(project, tmp_path / "story.zip")


def test_a_bundle_with_unused_files_differing_in_case_unpacks(tmp_path: Path) -> None:
    bundle = _source_with_case_twins(tmp_path)
    with zipfile.ZipFile(bundle) as archive:
        assert {"media/Notes.txt", "media/notes.txt"} <= set(archive.namelist())
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert (copy.path / CLIP_PATH).read_bytes() == CLIP_BYTES
        assert not (copy.path / "media" / "notes.txt").exists()
        assert any("skipped media/Notes.txt" in problem for problem in copy.problems)
        assert any("skipped media/notes.txt" in problem for problem in copy.problems)


def test_unpacked_entries_that_differ_only_in_case_are_still_refused(tmp_path: Path) -> None:
    twin = CLIP_PATH.replace("clip.mp4", "CLIP.mp4")
    with project_with_one_take(tmp_path / "source") as project:
        (project.path / twin).write_bytes(b"a poster")
        bundle = export_bundle(project, tmp_path / "story.zip")
    crafted = tmp_path / "crafted.zip"
    scratch = tmp_path / "crafted.db"
    with zipfile.ZipFile(bundle) as archive:  # take t1's poster is its clip's case twin: both are unpacked
        scratch.write_bytes(archive.read(DB_NAME))
        with closing(sqlite3.connect(scratch)) as conn, conn:
            conn.execute("UPDATE takes SET poster_path = ? WHERE id = 't1'", (twin,))
        with zipfile.ZipFile(crafted, "w") as out:
            for item in archive.infolist():
                out.writestr(item.filename, scratch.read_bytes() if item.filename == DB_NAME else archive.read(item))
    before = set(os.listdir(tmp_path))
    with pytest.raises(BundleError, match="is there twice"):
        import_bundle(crafted, tmp_path / "copy")
    assert set(os.listdir(tmp_path)) == before, "a refused bundle leaves nothing"


def test_an_entry_named_exactly_twice_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    with project_with_one_take(tmp_path / "source") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    crafted = tmp_path / "twice.zip"
    with zipfile.ZipFile(bundle) as archive, zipfile.ZipFile(crafted, "w") as out:
        for item in archive.infolist():
            out.writestr(item, archive.read(item))
        with pytest.warns(UserWarning, match="Duplicate name"):
            out.writestr(CLIP_PATH, b"not the clip")
    before = set(os.listdir(tmp_path))
    with pytest.raises(BundleError, match="is there twice"):
        import_bundle(crafted, tmp_path / "copy")
    assert set(os.listdir(tmp_path)) == before
