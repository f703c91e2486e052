"""The project database: opening with checks, migrations, and one-transaction writes."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.core.changes import Patch
from studio.core.errors import StudioError
from studio.storage.rows import TABLES, entity_row
from studio.storage.schema import APP_ID, MIGRATIONS, schema_version

if TYPE_CHECKING:
    import sqlite_utils


class ProjectFileError(StudioError):
    """A project file that can't be opened: damaged, foreign or from a newer version."""


def read_version(db_path: Path) -> int:
    """Read the schema version without writing anything (read-only connection)."""
    if not db_path.is_file():
        raise ProjectFileError(f"{db_path} does not exist.", hint="Is this a Kamishibai project folder?")
    if db_path.stat().st_size == 0:
        raise ProjectFileError(f"{db_path} is empty: the project database is damaged.",
                               hint="Restore it from a bundle or a backup (project.db.bak-*).")
    uri = f"file:{db_path.as_posix()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        raise ProjectFileError(f"Can't open {db_path}: {error}.") from None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            raise ProjectFileError(f"{db_path} is an SQLite database but not a Kamishibai project.")
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise ProjectFileError(
            f"{db_path} is damaged or is not a Kamishibai project ({error}).",
            hint="Nothing was changed. Restore it from a bundle or a backup (project.db.bak-*).",
        ) from None
    finally:
        conn.close()
    if meta.get("app") != APP_ID:
        raise ProjectFileError(f"{db_path} is not a Kamishibai project (app is {meta.get('app')!r}).")
    if check != "ok":
        raise ProjectFileError(f"{db_path} is damaged: {check}.",
                               hint="Nothing was changed. Restore it from a bundle or a backup (project.db.bak-*).")
    try:
        version = int(meta["schema_version"])
    except (KeyError, ValueError):
        raise ProjectFileError(f"{db_path} has no valid schema version.") from None
    if version > schema_version():
        raise ProjectFileError(
            f"This project was saved by a newer Kamishibai Studio (schema {version}); "
            f"this version reads up to schema {schema_version()}.",
            hint="Update Kamishibai Studio to open it. The project was not modified.",
        )
    return version


class Database:
    """One SQLite connection shared by threads under a lock (one writer at a time)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.RLock()
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        self.conn = conn

    @property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils' view of the connection, for introspection and ad-hoc queries.

        Imported on first use: it is not needed to open a project, and it is slow to import.
        Don't write through it: it commits on its own, which would split our transactions.
        """
        import sqlite_utils

        return sqlite_utils.Database(self.conn)

    @classmethod
    def create(cls, path: Path, meta: dict[str, str]) -> Database:
        database = cls(path)
        with database.transaction():
            for script in MIGRATIONS:
                database._run_script(script)
            rows = {"app": APP_ID, "schema_version": str(schema_version()), **meta}
            for key, value in rows.items():
                database.set_meta(key, value)
        return database

    @classmethod
    def open(cls, path: Path) -> Database:
        version = read_version(path)
        if version < schema_version():
            shutil.copy2(path, path.with_name(f"{path.name}.bak-v{version}"))
        database = cls(path)
        if version < schema_version():
            with database.transaction():
                for script in MIGRATIONS[version:]:
                    database._run_script(script)
                database.set_meta("schema_version", str(schema_version()))
        return database

    def _run_script(self, script: str) -> None:
        for statement in script.split(";"):
            if statement.strip():
                self.conn.execute(statement)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT; rolled back on any error."""
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            else:
                self.conn.execute("COMMIT")

    def meta(self) -> dict[str, str]:
        with self.lock:
            return {r["key"]: r["value"] for r in self.conn.execute("SELECT key, value FROM meta")}

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, value),
        )

    def write_patch(self, patch: Patch) -> None:
        """Write every entity of ``patch`` (upsert, or delete for None) in one transaction."""
        deletes: dict[str, list[tuple[str]]] = {}
        upserts: dict[tuple[str, tuple[str, ...]], list[tuple[Any, ...]]] = {}
        for (kind, ident), entity in patch.items():
            table = TABLES[kind]
            if entity is None:
                deletes.setdefault(table, []).append((ident,))
                continue
            row = entity_row(kind, entity)
            upserts.setdefault((table, tuple(row)), []).append(tuple(row.values()))
        with self.transaction() as conn:
            for table, idents in deletes.items():
                conn.executemany(f"DELETE FROM {table} WHERE id = ?", idents)
            for (table, columns), values in upserts.items():
                marks = ", ".join("?" for _ in columns)
                updates = ", ".join(f"{c}=excluded.{c}" for c in columns if c != "id")
                conn.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
                    f"ON CONFLICT(id) DO UPDATE SET {updates}",
                    values,
                )

    def values(self, table: str, columns: tuple[str, ...]) -> list[tuple[Any, ...]]:
        """Every row of ``table`` as plain tuples of ``columns`` (the fast path for loading)."""
        with self.lock:
            cursor = self.conn.cursor()
            cursor.row_factory = None
            return cursor.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()

    def execute(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Cursor:
        with self.lock:
            return self.conn.execute(sql, params)

    def close(self) -> None:
        with self.lock:
            with contextlib.suppress(sqlite3.Error):
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.conn.close()
