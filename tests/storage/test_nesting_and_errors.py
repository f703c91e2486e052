"""Projects are never nested, and read-only folders are described truthfully."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from studio.storage import Project, ProjectFileError
from studio.storage import errors as storage_errors
from studio.storage.database import Database
from studio.storage.errors import ProjectReadOnlyError, describe_sqlite_error


@pytest.mark.parametrize("inner", ["inner", "media/nested", "media/takes/a/b"])
def test_a_project_is_never_created_inside_another(tmp_path: Path, inner: str) -> None:
    from studio.storage.project import enclosing_project

    Project.create(tmp_path / "outer").close()
    outer = tmp_path / "outer.kamishibai"
    with pytest.raises(ProjectFileError, match="inside the project folder .*outer.kamishibai"):
        Project.create(outer / inner)
    assert not (outer / inner).with_name((outer / inner).name + ".kamishibai").exists()
    assert enclosing_project(outer / inner) == outer
    assert enclosing_project(tmp_path / "beside") is None
    (tmp_path / "link").symlink_to(outer / "media", target_is_directory=True)
    with pytest.raises(ProjectFileError, match="inside the project folder"):
        Project.create(tmp_path / "link" / "x")


def _pending_wal(tmp_path: Path) -> Path:
    """A project whose last change is still in project.db-wal (no -shm): as a process
    killed before its checkpoint leaves it, then copied."""
    Project.create(tmp_path / "p").close()
    folder = tmp_path / "p.kamishibai"
    (folder / "project.db-wal").write_bytes(b"\0" * 4096)
    return folder


def test_a_pending_wal_in_a_read_only_folder_is_not_called_readable(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The message said the folder was read-only and the hint that reading commands still
    work, while SQLite can't read the WAL without making a -shm file."""
    folder = _pending_wal(tmp_path)
    monkeypatch.setattr(storage_errors, "folder_writable", lambda folder: False)
    error = describe_sqlite_error(sqlite3.OperationalError("unable to open database file"), folder, "read it")
    assert isinstance(error, ProjectReadOnlyError)
    assert "changes not yet written into project.db" in error.message and "-wal" in error.message
    assert "still work" not in error.hint and "Copy the project folder" in error.hint

    def refuse(self: Database, path: Path, **kwargs: object) -> None:
        raise describe_sqlite_error(sqlite3.OperationalError("attempt to write a readonly database"),
                                    path.parent, f"open {path}")

    monkeypatch.setattr(Database, "__init__", refuse)
    monkeypatch.setattr("studio.storage.database.inspect_database", lambda path, **kwargs: None)
    with pytest.raises(ProjectReadOnlyError, match="changes not yet written") as raised:
        Database.open(folder / "project.db", read_only=True)
    assert "still work" not in raised.value.hint
    (folder / "project.db-wal").write_bytes(b"")  # an empty WAL: the usual message
    error = describe_sqlite_error(sqlite3.OperationalError("unable to open database file"), folder, "read it")
    assert "Reading commands" in error.hint
