"""A project's database made as an older studio wrote it, and checked once upgraded again (the
tests of projects opened from older versions)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from studio.storage.schema import MIGRATIONS
from studio.storage.schema_check import compare


@contextmanager
def rewound_to_schema(project: Path, version: int) -> Iterator[sqlite3.Connection]:
    """The project's database, for the block to take back what the schemas after ``version``
    changed (in one transaction); it is then marked as of ``version`` and must be exactly what
    that schema made."""
    conn = sqlite3.connect(project / "project.db")
    try:
        with conn:
            yield conn
            conn.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(version),))
        assert compare(conn, MIGRATIONS[:version]).empty, f"not what schema {version} made"
    finally:
        conn.close()


def assert_upgraded(project: Path) -> None:
    """The project's database is exactly what the latest schema makes, and says so."""
    conn = sqlite3.connect(project / "project.db")
    try:
        assert compare(conn, MIGRATIONS).empty
        assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(len(MIGRATIONS)),)
    finally:
        conn.close()
