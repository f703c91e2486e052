"""A project or a bundle that can't be made where asked leaves none of the folders made for it.

QA: `kamishibai unbundle bad.zip new/deeper/copy` refused the bundle (its database had a row
the studio can't read; or the disk had no room for it) but left ``new/deeper/`` behind, empty;
``Project.create`` (the window's New Project, ``sample``) that failed after making the folders
above the project (a full disk) left them too. Folders that were there before stay."""

from __future__ import annotations

import errno
import sqlite3
import zipfile
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage import errors as storage_errors
from studio.storage.bundle import BundleError, export_bundle, import_bundle
from studio.storage.database import Database
from studio.storage.errors import DiskFullError
from studio.storage.project import DB_NAME
from tests.storage.bundle_setup import project_with_one_take


@pytest.fixture
def refused_bundle(tmp_path: Path) -> Path:
    """A bundle whose take has a status the studio does not know: refused after the
    destination's folders were made."""
    with project_with_one_take(tmp_path / "source") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    scratch = tmp_path / "scratch.db"
    out = tmp_path / "refused.zip"
    with zipfile.ZipFile(bundle) as archive, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as rewritten:
        scratch.write_bytes(archive.read(DB_NAME))
        conn = sqlite3.connect(scratch)
        conn.execute("UPDATE takes SET status = 'weird'")
        conn.commit()
        conn.close()
        for item in archive.infolist():
            rewritten.writestr(item.filename, scratch.read_bytes() if item.filename == DB_NAME else archive.read(item))
    return out


def test_a_refused_bundle_leaves_no_folder_it_made(refused_bundle: Path, tmp_path: Path) -> None:
    where = tmp_path / "here"
    where.mkdir()
    with pytest.raises(BundleError, match="Refused the bundle refused.zip"):
        import_bundle(refused_bundle, where / "new" / "deeper" / "copy")
    assert list(where.iterdir()) == [], "no empty new/deeper/ is left"


def test_a_bundle_without_room_leaves_no_folder_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with project_with_one_take(tmp_path / "source") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    where = tmp_path / "here"
    (where / "kept").mkdir(parents=True)
    monkeypatch.setattr(storage_errors, "free_bytes", lambda folder: 1024)
    with pytest.raises(DiskFullError):
        import_bundle(bundle, where / "kept" / "new" / "copy")
    assert [p.name for p in where.iterdir()] == ["kept"], "a folder that was there stays"
    assert list((where / "kept").iterdir()) == []


def test_a_project_that_could_not_be_made_leaves_no_folder_it_made(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def full(cls: type[Database], path: Path, meta: dict[str, str]) -> Database:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(Database, "create", classmethod(full))
    monkeypatch.setattr(storage_errors, "free_bytes", lambda folder: 0)
    with pytest.raises(DiskFullError):
        Project.create(tmp_path / "new" / "deeper" / "story")
    assert list(tmp_path.iterdir()) == [], "no empty new/deeper/ is left"


def test_the_folders_made_for_a_project_stay_when_it_is_made(refused_bundle: Path, tmp_path: Path) -> None:
    with Project.create(tmp_path / "new" / "deeper" / "story") as project:
        assert project.path == tmp_path / "new" / "deeper" / "story.kamishibai"
    with import_bundle(tmp_path / "story.zip", tmp_path / "other" / "copy") as copy:
        assert copy.path.parent.is_dir()
    assert (tmp_path / "new" / "deeper" / "story.kamishibai" / DB_NAME).is_file()
