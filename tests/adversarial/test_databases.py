"""Untrusted databases: schema objects we did not create, bad versions, newer versions
(issue 11, items 4, 10 and 20)."""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import pytest

from .conftest import LINE, QUICK, kamishibai, new_project, play

HOSTILE_SCHEMA = {
    "trigger": "CREATE TRIGGER evil AFTER INSERT ON takes BEGIN "
               "UPDATE takes SET clip_path='../../../../etc/passwd' WHERE id=NEW.id; END",
    "view": "CREATE VIEW evil AS SELECT * FROM takes",
    "table": "CREATE TABLE evil (x)",
    "column": "ALTER TABLE takes ADD COLUMN evil TEXT DEFAULT 'x'",
    "index": "CREATE INDEX evil ON takes(clip_path)",
    "dropped index": "DROP INDEX takes_node",
}


def _edit_db(db: Path, *statements: str) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    for statement in statements:
        conn.execute(statement)
    conn.close()


def _rebundle(bundle: Path, out: Path, edit: str, tmp_path: Path) -> None:
    """``bundle`` with its project.db changed by ``edit``, written to ``out``."""
    work = tmp_path / "rebundle"
    work.mkdir(exist_ok=True)
    with zipfile.ZipFile(bundle) as source:
        source.extract("project.db", work)
        _edit_db(work / "project.db", edit)
        with zipfile.ZipFile(out, "w") as target:
            for info in source.infolist():
                if info.filename == "project.db":
                    target.write(work / "project.db", "project.db")
                else:
                    target.writestr(info, source.read(info))


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("bundled")
    path = new_project(tmp / "source")
    play(path)
    done = kamishibai("bundle", str(path), str(tmp / "source.zip"))
    assert done.returncode == 0, done.stderr
    return path, tmp / "source.zip"


@pytest.mark.parametrize("kind", list(HOSTILE_SCHEMA))
def test_a_bundle_with_foreign_schema_objects_is_refused(bundled: tuple[Path, Path], tmp_path: Path,
                                                         kind: str) -> None:
    """Item 4: a trigger (or view, table, changed column...) in a bundle's database is
    refused with a message naming it; nothing is unpacked."""
    _, bundle = bundled
    evil = tmp_path / "evil.zip"
    _rebundle(bundle, evil, HOSTILE_SCHEMA[kind], tmp_path)
    done = kamishibai("unbundle", str(evil), str(tmp_path / "copy"))
    assert done.returncode == 2, done.stdout
    assert "Kamishibai did not create" in done.stderr
    assert "damaged" not in done.stderr
    named = "takes_node" if kind == "dropped index" else "takes" if kind == "column" else "evil"
    assert repr(named) in done.stderr
    assert not (tmp_path / "copy.kamishibai").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("kind", ["trigger", "view", "column"])
def test_a_project_with_foreign_schema_objects_is_refused_before_any_write(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "p.kamishibai"
    done = kamishibai("new", str(path))
    assert done.returncode == 0
    _edit_db(path / "project.db", HOSTILE_SCHEMA[kind])
    before = (path / "project.db").read_bytes()
    for args in (["play", str(path), "-i", LINE, *QUICK], ["tree", str(path)], ["info", str(path)]):
        refused = kamishibai(*args)
        assert refused.returncode == 2
        assert "Kamishibai did not create" in refused.stderr
    assert (path / "project.db").read_bytes() == before
    conn = sqlite3.connect(path / "project.db")
    assert conn.execute("SELECT COUNT(*) FROM takes").fetchone()[0] == 0
    conn.close()


@pytest.mark.parametrize("version", ["0", "-1", "abc", "1"])
def test_a_bad_schema_version_is_refused_clearly(tmp_path: Path, version: str) -> None:
    """Item 10: 0, -1, or 1 while the v2 jobs table is there: a clear refusal, no backup."""
    path = new_project(tmp_path / "p")
    _edit_db(path / "project.db", f"UPDATE meta SET value='{version}' WHERE key='schema_version'")
    for args in (["play", str(path), "-i", LINE, *QUICK], ["tree", str(path)]):
        refused = kamishibai(*args)
        assert refused.returncode == 2
        if version == "1":
            assert "table 'jobs' (not ours)" in refused.stderr
        else:
            assert f"invalid schema version {version!r}" in refused.stderr
    assert not list(path.glob("project.db.bak-*"))


def test_a_newer_project_is_refused_without_creating_files(tmp_path: Path) -> None:
    """Item 20: no -wal, -shm (or lock) file appears in a project we refuse."""
    path = new_project(tmp_path / "p")
    _edit_db(path / "project.db", "UPDATE meta SET value='99' WHERE key='schema_version'")
    (path / "writer.lock").unlink()  # as a project made by another version may have none
    before = sorted(p.name for p in path.iterdir())
    for args in (["tree", str(path)], ["info", str(path)], ["play", str(path), "-i", LINE], ["queue", str(path)]):
        refused = kamishibai(*args)
        assert refused.returncode == 2 and "newer Kamishibai Studio" in refused.stderr
    assert sorted(p.name for p in path.iterdir()) == before


def _clips(project: Path) -> list[Path]:
    return sorted((project / "media" / "takes").glob("*/*.mp4"))


@pytest.mark.parametrize("take_id", [".", "..", "../..", "a/../.."])
def test_a_job_row_whose_take_id_is_not_a_plain_name_deletes_nothing(tmp_path: Path, take_id: str) -> None:
    """A running job row with take id '.' made recovery remove media/takes (every clip)."""
    path = new_project(tmp_path / "p")
    turn = play(path)
    clips = _clips(path)
    assert clips
    _edit_db(path / "project.db", "INSERT INTO jobs(id, node_id, engine, status, take_id, owner) "
             f"VALUES ('x', '{turn['node']}', 'sketch', 'running', '{take_id}', '')")
    play(path)
    assert all(clip.is_file() for clip in clips), "recovery removed clips it does not own"
    conn = sqlite3.connect(path / "project.db")
    status, error = conn.execute("SELECT status, error FROM jobs WHERE id='x'").fetchone()
    conn.close()
    assert status == "interrupted" and "not a plain name" in error and "Nothing was removed" in error


BAD_ROWS = {
    "start_states a list": "UPDATE nodes SET start_states='[1]' WHERE parent_id IS NULL",
    "start_state text stat": "UPDATE nodes SET start_state='{\"stamina\":\"abc\",\"social\":1,\"entertainment\":2}' "
                             "WHERE parent_id IS NULL",
    "start_state unknown stat": "UPDATE nodes SET start_state='{\"luck\":3}' WHERE parent_id IS NULL",
    "dialogue not pairs": "UPDATE nodes SET dialogue='[1, 2]' WHERE parent_id IS NOT NULL",
    "settings nested 100000 deep": "UPDATE takes SET settings=(SELECT printf('%.*c', 100000, '['))",
    "settings valid but deep": "UPDATE takes SET settings='{\"a\":' || (SELECT printf('%.*c', 500, '[')) || "
                               "(SELECT printf('%.*c', 500, ']')) || '}'",
    "warnings an object": "UPDATE takes SET warnings='{\"a\":1}'",
}


@pytest.mark.parametrize("case", list(BAD_ROWS))
def test_rows_of_the_wrong_shape_are_refused_clearly(bundled: tuple[Path, Path], tmp_path: Path, case: str) -> None:
    """tree, info and unbundle said "internal error" (AttributeError, TypeError,
    RecursionError) for rows of the wrong JSON shape; `tree` printed half the tree first."""
    import shutil

    path = tmp_path / "copy.kamishibai"
    shutil.copytree(bundled[0], path)
    _edit_db(path / "project.db", BAD_ROWS[case])
    for command in ("tree", "info"):
        done = kamishibai(command, str(path))
        assert done.returncode == 2, done.stdout
        assert "holds a row that can't be read" in done.stderr, done.stderr
        if command == "tree":  # no half of a tree
            assert done.stdout == ""
        else:  # info reports what it can: the project is damaged, and why
            assert "damaged: yes" in done.stdout and "holds a row that can't be read" in done.stdout, done.stdout
    _rebundle(bundled[1], tmp_path / "bad.zip", BAD_ROWS[case], tmp_path)
    done = kamishibai("unbundle", str(tmp_path / "bad.zip"), str(tmp_path / "out"))
    assert done.returncode == 2 and "holds a row that can't be read" in done.stderr, done.stderr
    assert not (tmp_path / "out.kamishibai").exists()
