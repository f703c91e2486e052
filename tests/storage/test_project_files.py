"""Project files: creation, reopening, bad files (each refused clearly, nothing changed)."""

from __future__ import annotations

import hashlib
import sqlite3
import zipfile
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, StateDeltas, Take
from studio.storage import Project, ProjectFileError, UnsafePathError
from studio.storage.bundle import BundleError, export_bundle, import_bundle
from studio.storage.schema import schema_version
from tests.storage.bundle_setup import relist


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_project(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "p") as project:
        project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town", node_id="n1"))
        clip = f"{project.take_media_dir('t1')}/clip.mp4"
        with project.writing(clip) as tmp:
            tmp.write_bytes(b"not really a video")
        project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", clip_path=clip, deltas=StateDeltas(-2, 0, 1))))
        return project.path


def test_layout_wal_and_schema(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    assert path.name == "p.kamishibai"
    assert (path / "project.db").is_file() and (path / "media").is_dir()
    conn = sqlite3.connect(path / "project.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(schema_version())
    assert conn.execute("SELECT clip_path FROM takes").fetchone()[0] == "media/takes/t1/clip.mp4"
    conn.close()
    with Project.open(path) as project:
        assert project.tree.state_of("n1").stamina == 40
        assert project.resolve(project.tree.takes["t1"].clip_path).read_bytes() == b"not really a video"


def test_newer_schema_refused_untouched(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    conn = sqlite3.connect(path / "project.db")
    conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    before = digest(path / "project.db")
    with pytest.raises(ProjectFileError, match="newer Kamishibai Studio \\(schema 99\\)"):
        Project.open(path)
    assert digest(path / "project.db") == before


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty"])
def test_damaged_db_refused_untouched(tmp_path: Path, damage: str) -> None:
    path = make_project(tmp_path)
    db = path / "project.db"
    data = db.read_bytes()
    if damage == "truncate":
        db.write_bytes(data[: len(data) // 3])
    elif damage == "garbage":
        db.write_bytes(b"\x13\x37" * 5000)
    else:
        db.write_bytes(b"")
    for extra in path.iterdir():  # as copied from elsewhere: only the database and media
        if extra.name not in ("project.db", "media"):
            extra.unlink()
    before = digest(db)
    with pytest.raises(ProjectFileError, match="damaged|not a Kamishibai"):
        Project.open(path)
    assert digest(db) == before
    assert sorted(p.name for p in path.iterdir()) == ["media", "project.db"], "a refused project gets no new file"


@pytest.mark.parametrize("sql", [
    "UPDATE nodes SET dialogue='[{\"speaker\": \"Qiqi\", \"text\": \"hi\"}]' WHERE id='n1'",  # objects, not pairs
    "UPDATE takes SET warnings='{\"a\": 1}'",
    "UPDATE nodes SET parent_id='gone' WHERE id='n1'",  # a broken tree
])
def test_an_unreadable_row_suggests_restoring_a_backup(tmp_path: Path, sql: str) -> None:
    """QA: the message named the row well but had no hint, unlike the other damage messages."""
    from studio.storage.errors import RESTORE_HINT, ProjectDamagedError

    path = make_project(tmp_path)
    conn = sqlite3.connect(path / "project.db")
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.execute(sql)
    conn.commit()
    conn.close()
    for read_only in (True, False):
        with pytest.raises(ProjectDamagedError, match="holds a (row that can't be read|broken story tree)") as raised:
            Project.open(path, read_only=read_only)
        assert raised.value.hint == RESTORE_HINT


def test_foreign_sqlite_refused(tmp_path: Path) -> None:
    folder = tmp_path / "foreign.kamishibai"
    folder.mkdir()
    conn = sqlite3.connect(folder / "project.db")
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(ProjectFileError, match="not a Kamishibai project") as raised:
        Project.open(folder)
    assert "another program" in raised.value.hint and "kamishibai new" in raised.value.hint  # what to do
    assert (folder / "project.db").is_file()


def test_a_missing_clip_file_is_named_when_the_project_opens(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    with Project.open(path) as project:
        assert project.problems == []
        clip = path / project.tree.takes["t1"].clip_path
    clip.unlink()
    with Project.open(path) as project:  # it opens, keeps the take, and says which turn to re-roll
        assert project.tree.takes["t1"].clip_path == "media/takes/t1/clip.mp4"
        assert len(project.problems) == 1
        problem = project.problems[0]
        assert problem.startswith("1 clip file(s) are missing") and "turn 1" in problem and "re-roll" in problem


def test_not_a_project_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ProjectFileError, match="has no project.db"):
        Project.open(tmp_path / "empty")
    with pytest.raises(ProjectFileError, match="No project"):
        Project.open(tmp_path / "missing")


@pytest.mark.parametrize("evil", ["../../etc/passwd", "/etc/passwd", "media/../../outside.mp4", "C:\\\\evil.mp4"])
def test_db_path_outside_project_refused(tmp_path: Path, evil: str) -> None:
    path = make_project(tmp_path)
    conn = sqlite3.connect(path / "project.db")
    conn.execute("UPDATE takes SET clip_path=?", (evil,))
    conn.commit()
    conn.close()
    with Project.open(path) as project:
        assert project.tree.takes["t1"].clip_path == ""
        assert any("t1" in p and "Refused" in p for p in project.problems)
        with pytest.raises(UnsafePathError):
            project.resolve(evil)
    conn = sqlite3.connect(path / "project.db")
    assert conn.execute("SELECT clip_path FROM takes").fetchone()[0] == evil, "opening must not rewrite the row"
    conn.close()


def test_symlink_escape_refused(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    (path / "media" / "link").symlink_to(tmp_path)
    with Project.open(path) as project, pytest.raises(UnsafePathError):
        project.resolve("media/link/secret.txt")


def test_create_refuses_existing_folder(tmp_path: Path) -> None:
    make_project(tmp_path)
    with pytest.raises(ProjectFileError, match="already exists"):
        Project.create(tmp_path / "p")


def test_migration_from_older_schema_keeps_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.storage import schema

    path = make_project(tmp_path)
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, "CREATE TABLE extra_things (id TEXT)"])
    import studio.storage.database as database

    monkeypatch.setattr(database, "MIGRATIONS", schema.MIGRATIONS)
    with Project.open(path) as project:
        assert project.database.meta()["schema_version"] == str(len(schema.MIGRATIONS))
        assert "extra_things" in project.database.db.table_names()
        assert project.tree.takes["t1"].deltas == StateDeltas(-2, 0, 1)
    assert (path / f"project.db.bak-v{len(schema.MIGRATIONS) - 1}").is_file()


def test_bundle_round_trip(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    with Project.open(path) as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with import_bundle(bundle, tmp_path / "copy") as copy:
        assert set(copy.tree.nodes) >= {"n1"}
        assert copy.resolve(copy.tree.takes["t1"].clip_path).read_bytes() == b"not really a video"
        assert copy.problems == [], "every clip came with the bundle"
    # a bundle without a clip the project names: both the bundle and the project say so
    with zipfile.ZipFile(bundle) as archive, zipfile.ZipFile(tmp_path / "thin.zip", "w") as thin:
        for item in archive.infolist():
            if not item.filename.endswith("clip.mp4"):
                thin.writestr(item, archive.read(item))
    relist(tmp_path / "thin.zip")  # as bundled from a project that had lost the clip
    with import_bundle(tmp_path / "thin.zip", tmp_path / "thin") as copy:
        assert any("is named by the project but is not in the bundle" in p for p in copy.problems)
        assert any(p.startswith("1 clip file(s) are missing") for p in copy.problems)


@pytest.mark.parametrize("entry", ["../escape.txt", "/abs.txt", "media/../../escape.txt", "notes/other.txt"])
def test_bundle_entry_escaping_refused(tmp_path: Path, entry: str) -> None:
    path = make_project(tmp_path)
    with Project.open(path) as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with zipfile.ZipFile(bundle, "a") as archive:
        archive.writestr(zipfile.ZipInfo(entry), b"evil")
    with pytest.raises(BundleError, match="Refused the bundle"):
        import_bundle(bundle, tmp_path / "copy")
    assert not (tmp_path / "copy.kamishibai").exists()
    assert not (tmp_path / "escape.txt").exists() and not (tmp_path.parent / "escape.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".import-")]


def test_bundle_symlink_entry_refused(tmp_path: Path) -> None:
    path = make_project(tmp_path)
    with Project.open(path) as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    info = zipfile.ZipInfo("media/link")
    info.external_attr = (0o120777 << 16)
    with zipfile.ZipFile(bundle, "a") as archive:
        archive.writestr(info, "/etc")
    with pytest.raises(BundleError, match="symbolic link"):
        import_bundle(bundle, tmp_path / "copy")
