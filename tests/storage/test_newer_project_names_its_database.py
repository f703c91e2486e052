"""A project saved by a newer version of the app is refused naming the database it refuses
(QA: the message began "This project was saved by a newer Kamishibai Studio", which names
nothing when the window reopens a recent project or a script walks many folders), and the
file is left exactly as it was. Unbundled, the message names the bundle's ``project.db``,
never the hidden folder it was checked in."""

from __future__ import annotations

import hashlib
import sqlite3
import zipfile
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.bundle import BundleError, export_bundle, import_bundle
from studio.storage.errors import ProjectFileError
from tests.storage.bundle_setup import project_with_one_take, relist


def _from_the_future(db: Path) -> None:
    """What a newer app would have written: a higher schema version and a column of its own."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
        conn.execute("ALTER TABLE takes ADD COLUMN audio_path TEXT NOT NULL DEFAULT ''")
    conn.close()


def test_a_newer_project_is_refused_naming_its_database(tmp_path: Path) -> None:
    project_with_one_take(tmp_path / "story.kamishibai").close()
    db = tmp_path / "story.kamishibai" / "project.db"
    _from_the_future(db)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    for read_only in (False, True):
        with pytest.raises(ProjectFileError) as refused:
            Project.open(db.parent, read_only=read_only)
        message = refused.value.message
        assert message.startswith(f"{db} was saved by a newer Kamishibai Studio (schema 7)"), message
        assert "Update Kamishibai Studio" in refused.value.hint
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_a_newer_bundle_names_its_database_not_where_it_was_checked(tmp_path: Path) -> None:
    with project_with_one_take(tmp_path / "story.kamishibai") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with zipfile.ZipFile(bundle) as archive:
        (tmp_path / "future.db").write_bytes(archive.read("project.db"))
    _from_the_future(tmp_path / "future.db")
    with zipfile.ZipFile(bundle) as archive:
        kept = [(info, archive.read(info)) for info in archive.infolist() if info.filename != "project.db"]
    with zipfile.ZipFile(bundle, "w") as archive:
        for info, data in kept:
            archive.writestr(info, data)
        archive.writestr("project.db", (tmp_path / "future.db").read_bytes())
    relist(bundle)
    with pytest.raises(BundleError) as refused:
        import_bundle(bundle, tmp_path / "copy.kamishibai")
    message = refused.value.message
    assert "project.db was saved by a newer Kamishibai Studio (schema 7)" in message, message
    assert ".import" not in message and str(tmp_path) not in message.replace(str(bundle), "")
    assert not (tmp_path / "copy.kamishibai").exists()
