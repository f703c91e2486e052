"""Is a database's schema exactly the one our migrations create?

A project can come from anywhere (a bundle, a copy someone edited). SQLite keeps triggers,
views and column defaults in the file itself and runs them on our writes: an ``AFTER
INSERT`` trigger on ``takes`` could rewrite every clip path we store. So before any write
the schema is compared, object by object, with the one the migrations up to the file's
version produce in a fresh in-memory database; any difference refuses the project.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

ALLOWED_INTERNAL = frozenset({"sqlite_stat1", "sqlite_stat4"})
"""Tables SQLite itself makes (ANALYZE statistics): data for the planner, never code."""


@dataclass(frozen=True, order=True)
class SchemaObject:
    type: str
    name: str
    table: str
    sql: str

    def describe(self) -> str:
        on = f" on {self.table}" if self.type in ("trigger", "index") and self.table != self.name else ""
        return f"{self.type} {self.name!r}{on}"


@dataclass(frozen=True)
class SchemaDifference:
    extra: tuple[SchemaObject, ...]
    missing: tuple[SchemaObject, ...]
    changed: tuple[SchemaObject, ...]

    @property
    def empty(self) -> bool:
        return not (self.extra or self.missing or self.changed)

    def describe(self, limit: int = 8) -> str:
        parts = [f"{o.describe()} (not ours)" for o in self.extra]
        parts += [f"{o.describe()} (changed)" for o in self.changed]
        parts += [f"{o.describe()} (missing)" for o in self.missing]
        more = f", and {len(parts) - limit} more" if len(parts) > limit else ""
        return ", ".join(parts[:limit]) + more


def _normalise(sql: str | None) -> str:
    return " ".join((sql or "").split())


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run a migration script statement by statement (our scripts hold no ``;`` in text)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def objects_of(conn: sqlite3.Connection) -> set[SchemaObject]:
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    return {
        SchemaObject(str(kind), str(name), str(table), _normalise(sql))
        for kind, name, table, sql in rows
        if name not in ALLOWED_INTERNAL
    }


@functools.lru_cache(maxsize=8)
def reference_objects(scripts: tuple[str, ...]) -> frozenset[SchemaObject]:
    """The schema objects ``scripts`` create in an empty database."""
    conn = sqlite3.connect(":memory:")
    try:
        for script in scripts:
            run_script(conn, script)
        return frozenset(objects_of(conn))
    finally:
        conn.close()


def compare(conn: sqlite3.Connection, scripts: Sequence[str]) -> SchemaDifference:
    """How ``conn``'s schema differs from what ``scripts`` create."""
    ours = reference_objects(tuple(scripts))
    theirs = objects_of(conn)
    by_key = {(o.type, o.name): o for o in ours}
    their_keys = {(o.type, o.name): o for o in theirs}
    extra = sorted(o for key, o in their_keys.items() if key not in by_key)
    missing = sorted(o for key, o in by_key.items() if key not in their_keys)
    changed = sorted(o for key, o in their_keys.items() if key in by_key and by_key[key] != o)
    return SchemaDifference(tuple(extra), tuple(missing), tuple(changed))
