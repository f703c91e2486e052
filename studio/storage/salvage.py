"""What can still be read of a damaged project database, written into a new, healthy project.

A project whose ``project.db`` is damaged (bytes overwritten, the file cut short) is refused
when opened: one unreadable page makes the whole file untrustworthy. Most of its rows usually
sit on pages that are whole, though. :func:`salvage_project` reads every table row by row,
in rowid order, stepping over each stretch of the file SQLite can't read (it finds the first
rowid it can read again after it), and turns each row it reads into the story's entities
with the same checks a project's loader makes. What it can't read, it names: the rows of a
damaged stretch (by id, where the table's index still lists them), a row whose values are
not what the studio writes, a take of a turn that was lost. The turns it reads are written
into a new project with the media files that can still be read; the damaged project is only
read (its database is copied aside first, so that not even SQLite's side files are made
beside it).

A turn whose parent was lost is put under the story's start, with the turns below it, and
named: its words, takes and clips are kept, though the turn it continued is gone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from studio.core.changes import EntityKind, Patch, key_of
from studio.core.commands import restale
from studio.core.errors import StudioError
from studio.core.model import CastMember, Location, Node, Take
from studio.core.sentence import plural
from studio.core.tree import StoryTree
from studio.storage.paths import UnsafePathError, open_inside
from studio.storage.project import (
    DB_NAME,
    Project,
    _orders_after,
    normalise_project_path,
)
from studio.storage.rescue import closed_or_removed, copy_opened, media_of
from studio.storage.rows import (
    CAST_COLUMNS,
    COLUMN_FALLBACKS,
    LOCATION_COLUMNS,
    NODE_COLUMNS,
    TAKE_COLUMNS,
    cast_from_values,
    location_from_values,
    node_from_values,
    take_from_values,
)

_ROW_ERRORS = (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError)
"""What turning a row of a damaged file into an entity may raise (a value of another type,
a JSON text cut in half)."""

MAX_ROWID = 2**63 - 1

MAX_FAULTS = 10_000
"""How many damaged stretches one table is read past before the rest of it is given up."""


TABLE_WORDS = {"nodes": "the turns", "takes": "the takes", "cast_members": "the cast", "locations": "the places"}
"""How the losses name each table's rows."""


class NothingReadableError(StudioError):
    """Not even the database's list of tables can be read: nothing can be salvaged."""


@dataclass
class TableRead:
    """One table's rows as read, and what could not be read of it."""

    rows: list[tuple[Any, ...]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    """Sentences naming what could not be read (a row, a stretch of rows)."""
    lost_ids: list[str] = field(default_factory=list)
    """The ids of the rows not read, where the table's index still lists them."""
    counts: dict[str, int] = field(default_factory=dict)
    """How many times each loss was met (a damaged stretch may be stepped over often)."""


@dataclass
class Salvaged:
    """What :func:`salvage_project` wrote, and what it could not."""

    project: Project
    """The new project, open for writing."""
    turns: int
    takes: int
    cast: int
    locations: int
    whole: bool
    """Whether the database read without a fault (then nothing was lost from it)."""
    lost: list[str] = field(default_factory=list)
    """What of the story could not be read, one sentence each."""
    moved: list[str] = field(default_factory=list)
    """Turns put under the story's start, their parent being lost."""
    unreadable_media: list[str] = field(default_factory=list)
    """Stored media paths whose files could not be copied."""


# -- reading the damaged file -------------------------------------------------------------------


@contextlib.contextmanager
def _copied_database(folder: Path) -> Iterator[sqlite3.Connection]:
    """A connection to a copy of ``folder``'s database (with its write-ahead log, whose
    committed changes belong to it), made in a temporary folder: SQLite may then make its
    side files and read the log without anything being written beside the damaged project."""
    with tempfile.TemporaryDirectory(prefix="kamishibai-salvage-") as temporary:
        copy = Path(temporary) / DB_NAME
        try:
            shutil.copyfile(folder / DB_NAME, copy)
        except OSError as error:
            raise StudioError(f"Can't read {folder / DB_NAME}: {error.strerror or error}.",
                              hint="Check that the file exists and that you may read it.") from None
        wal = folder / f"{DB_NAME}-wal"
        with contextlib.suppress(OSError):
            if wal.is_file() and not wal.is_symlink():
                shutil.copyfile(wal, copy.with_name(f"{DB_NAME}-wal"))
        conn = sqlite3.connect(copy, isolation_level=None)
        try:
            try:
                # a file cut short holds fewer pages than its header says, which SQLite takes for
                # damage before reading anything unless the schema may be read as it is
                conn.execute("PRAGMA writable_schema = 1")
                conn.execute("PRAGMA query_only = 1")
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.Error as error:
                raise NothingReadableError(
                    f"Nothing can be read from {folder / DB_NAME}: its first page, which lists its tables, is "
                    f"damaged ({error}).",
                    hint="Restore the project from a backup (a project.db.bak-v* file beside it, or a bundle).",
                ) from None
            yield conn
        finally:
            conn.close()


def _columns(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> list[str] | None:
    """``columns`` as a SELECT names them, with the values an older schema's missing columns
    read as; None where the table can't be found."""
    try:
        present = {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})").fetchall()}
    except sqlite3.Error:
        present = set(columns)  # the list of columns can't be read: try them all
    if not present:
        return None
    fallbacks = COLUMN_FALLBACKS.get(table, {})
    return [c if c in present else f"{fallbacks.get(c, 'NULL')} AS {c}" for c in columns]


def _first_rowid_from(conn: sqlite3.Connection, table: str, start: int) -> int | bool | None:
    """The first rowid at or after ``start`` that can be read: None when there is none; False
    when the page it would be on can't be read."""
    try:
        row = conn.execute(f"SELECT rowid FROM {table} NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1",
                           (start,)).fetchone()
    except sqlite3.DatabaseError:
        return False
    if row is None:
        return None
    rowid = row[0]
    # a damaged page may give a key out of order: that page can't be read either
    return int(rowid) if isinstance(rowid, int) and rowid >= start else False


def _next_readable(conn: sqlite3.Connection, table: str, after: int) -> int | None:
    """The first rowid after ``after`` that sits past the damaged stretch that follows it;
    None when nothing can be read after it. Steps forward in doubling strides until a read
    succeeds, then halves back to the first start that reads."""
    low, step, high = after, 1, None
    found: int | None = None
    while after + step <= MAX_ROWID:
        probe = _first_rowid_from(conn, table, after + step)
        if probe is not False:
            high = after + step
            found = probe if isinstance(probe, int) else None
            break
        low = after + step
        step *= 2
    if high is None:
        return None
    while high - low > 1:  # low fails, high reads
        middle = (low + high) // 2
        probe = _first_rowid_from(conn, table, middle)
        if probe is False:
            low = middle
        else:
            high = middle
            found = probe if isinstance(probe, int) else None
    return found


def _indexed_ids(conn: sqlite3.Connection, table: str) -> set[str] | None:
    """Every id the table's primary-key index lists (it sits on pages of its own, often whole
    where the table's are not); None where it can't be read."""
    try:
        names = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'sqlite_autoindex%'",
            (table,))]
        if not names:
            return None
        return {str(row[0]) for row in conn.execute(f"SELECT id FROM {table} INDEXED BY {names[0]}")}
    except sqlite3.Error:
        return None


def _row_alone(conn: sqlite3.Connection, table: str, selected: list[str], rowid: int) -> tuple[Any, ...] | None:
    """The row ``rowid``, read on its own; None where it can't be."""
    try:
        found = conn.execute(f"SELECT {', '.join(selected)} FROM {table} NOT INDEXED WHERE rowid = ?",
                             (rowid,)).fetchall()
    except sqlite3.DatabaseError:
        return None
    return tuple(found[0]) if len(found) == 1 else None


def _note(read: TableRead, what: str) -> None:
    """Add ``what`` to the table's losses, counting one said before rather than repeating it."""
    counted = read.counts.get(what, 0) + 1
    read.counts[what] = counted
    if counted == 1:
        read.lost.append(what)
    else:
        read.lost[read.lost.index(what if counted == 2 else f"{what} (× {counted - 1})")] = f"{what} (× {counted})"


def read_table(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> TableRead:
    """Every row of ``table`` that can be read, in rowid order (the order the cast and the
    places keep), stepping over the stretches that can't."""
    read = TableRead()
    what = TABLE_WORDS.get(table, table)
    selected = _columns(conn, table, columns)
    if selected is None:
        read.lost.append(f"every one of {what}: their table can't be found")
        return read
    # rowid >= the next one, never > the last: SQLite seeks "> N" from N's own page, which may
    # be the damaged page the read is stepping past
    query = f"SELECT rowid, {', '.join(selected)} FROM {table} NOT INDEXED WHERE rowid >= ? ORDER BY rowid"
    after = -MAX_ROWID - 1
    faults = 0
    taken: set[Any] = set()
    while faults <= MAX_FAULTS:
        try:
            for row in conn.execute(query, (after + 1,)):
                rowid = row[0]
                if not isinstance(rowid, int) or rowid <= after or row[1] in taken:
                    continue  # a damaged page's rows out of order: each row is taken once
                taken.add(row[1])
                read.rows.append(tuple(row[1:]))
                after = rowid
            break
        except sqlite3.DatabaseError:
            faults += 1
        key = _first_rowid_from(conn, table, after + 1)
        if isinstance(key, int) and not isinstance(key, bool):
            # the next row, read on its own: a row just before a damaged page is lost with the
            # step past it, and one whose values sit on a damaged page of their own can't be read
            alone = _row_alone(conn, table, selected, key)
            if alone is None:
                _note(read, f"a row of {what} whose values can't be read")
            elif alone[0] not in taken:
                taken.add(alone[0])
                read.rows.append(alone)
            after = key
            continue
        resumed = _next_readable(conn, table, after)
        if resumed is None:
            _note(read, f"the last rows of {what} (the file is cut short or damaged there)")
            break
        _note(read, f"a damaged part of the file holding {what}")
        after = resumed - 1
    else:
        _note(read, f"the rest of {what} (too many damaged parts)")
    if faults:
        listed = _indexed_ids(conn, table)
        if listed is not None:
            got = {str(row[0]) for row in read.rows}
            read.lost_ids = sorted(listed - got)
    return read


def _meta_name(conn: sqlite3.Connection) -> str | None:
    with contextlib.suppress(sqlite3.Error):
        row = conn.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        if row is not None and isinstance(row[0], str) and row[0].strip():
            return row[0]
    return None


# -- turning rows into the story ----------------------------------------------------------------


def _build(rows: list[tuple[Any, ...]], make: Callable[[tuple[Any, ...]], Any], what: str,
           lost: list[str]) -> list[Any]:
    made = []
    for values in rows:
        try:
            made.append(make(values))
        except _ROW_ERRORS as error:
            named = "the story's start" if what == "turn" and len(values) > 1 and values[1] is None else what
            lost.append(f"{named} {values[0]!s:.40} (its row holds values that can't be read: {error})")
    return made


def _turn_ref(node: Node) -> str:
    words = node.instruction.raw.strip()
    return f"turn {node.id}" + (f" ({words[:40]!r})" if words else "")


def _mend(nodes: list[Node], takes: list[Take], new_root: str, lost: list[str],
          lost_starts: frozenset[str] = frozenset()) -> tuple[list[Node], list[Take], str, bool, list[str]]:
    """The turns and takes made into one tree: one root (the one read, else ``new_root``),
    every turn reachable from it (a turn whose parent is lost, or caught in a loop, goes
    under the start), every take of a turn that was read, every chosen take one that was.
    ``lost_starts``: the ids of starts whose rows were found but could not be read: the
    turns that continued from them continue from the new start, which is no move."""
    roots = [node for node in nodes if node.parent_id is None]
    root_id = roots[0].id if roots else new_root
    by_id = {node.id: node for node in nodes}
    for extra in roots[1:]:  # a second start: its turns go under the first
        by_id[extra.id] = replace(extra, parent_id=root_id)
    for node in list(by_id.values()):
        if node.parent_id in lost_starts:
            by_id[node.id] = replace(node, parent_id=root_id)
    kept_takes = []
    for take in takes:
        if take.node_id in by_id:
            kept_takes.append(take)
        else:
            lost.append(f"take {take.id} of turn {take.node_id}, which could not be read")
    take_ids = {take.id for take in kept_takes}
    for node in list(by_id.values()):
        if node.selected_take_id and node.selected_take_id not in take_ids:
            lost.append(f"the chosen take {node.selected_take_id} of {_turn_ref(node)}")
            by_id[node.id] = replace(node, selected_take_id=None)
    moved: list[str] = []
    children: dict[str, list[str]] = {}
    for node in by_id.values():
        if node.parent_id is not None:
            children.setdefault(node.parent_id, []).append(node.id)
    reached: set[str] = set()

    def reach(start: str) -> None:
        stack = [start]
        while stack:
            current = stack.pop()
            if current in reached:
                continue
            reached.add(current)
            stack.extend(children.get(current, ()))

    reach(root_id)
    position = len(children.get(root_id, ()))
    for node_id in list(by_id):
        if node_id in reached:
            continue
        node = by_id[node_id]
        if node.parent_id is not None and node.parent_id in by_id and node.parent_id not in reached \
                and not _in_loop(by_id, node_id):
            continue  # its branch's top comes up in turn
        why = "its parent could not be read" if node.parent_id not in by_id else "its parents loop"
        moved.append(f"{_turn_ref(node)}: {why}, so it now continues from the story's start")
        by_id[node_id] = replace(node, parent_id=root_id, position=position)
        position += 1
        children.setdefault(root_id, []).append(node_id)
        reach(node_id)
    return list(by_id.values()), kept_takes, root_id, bool(roots), moved


def _in_loop(by_id: dict[str, Node], node_id: str) -> bool:
    seen = {node_id}
    parent = by_id[node_id].parent_id
    while parent is not None and parent in by_id:
        if parent in seen:
            return True
        seen.add(parent)
        parent = by_id[parent].parent_id
    return False


# -- writing the new project --------------------------------------------------------------------


def _copy_media(source: Path, rel: str, dest: Path) -> bool:
    """Copy ``source``'s file ``rel`` into ``dest`` (read without following a link); False
    where it can't be read."""
    try:
        fd = open_inside(source, rel)
    except (OSError, UnsafePathError):
        return False
    return copy_opened(fd, dest / rel)


def salvage_project(damaged: str | os.PathLike[str], dest: str | os.PathLike[str]) -> Salvaged:
    """Write what can be read of the project ``damaged`` into the new project ``dest`` (see
    the module's notes). A copy stopped part way (Ctrl+C, a full disk) is
    removed: nothing that looks like a project is left."""
    folder = normalise_project_path(damaged)
    lost: list[str] = []
    with _copied_database(folder) as conn:
        name = _meta_name(conn)
        reads = {
            "nodes": read_table(conn, "nodes", NODE_COLUMNS),
            "takes": read_table(conn, "takes", TAKE_COLUMNS),
            "cast_members": read_table(conn, "cast_members", CAST_COLUMNS),
            "locations": read_table(conn, "locations", LOCATION_COLUMNS),
        }
    faults = any(read.lost for read in reads.values())
    for table, read in reads.items():
        lost.extend(read.lost)
        if read.lost_ids:
            kind = {"nodes": "turn", "takes": "take", "cast_members": "cast member", "locations": "place"}[table]
            lost.append(f"{plural(len(read.lost_ids), kind)} not read: {', '.join(read.lost_ids[:20])}"
                        + (" …" if len(read.lost_ids) > 20 else ""))
    nodes: list[Node] = _build(reads["nodes"].rows, node_from_values, "turn", lost)
    takes: list[Take] = _build(reads["takes"].rows, take_from_values, "take", lost)
    cast: list[CastMember] = _build(reads["cast_members"].rows, cast_from_values, "cast member", lost)
    places: list[Location] = _build(reads["locations"].rows, location_from_values, "place", lost)
    try:
        made = Project.create(dest, name)
    except StudioError:
        made = Project.create(dest)  # a stored name the studio would not take: the folder's
    with closed_or_removed(made) as target:
        starts = frozenset(str(values[0]) for values in reads["nodes"].rows if values[1] is None)
        nodes, takes, _root_id, root_read, moved = _mend(nodes, takes, made.tree.root_id, lost,
                                                         starts - {node.id for node in nodes})
        if not root_read:
            lost.append("the story's start: where each character starts is back to 50 for every stat")
        entities: list[Any] = [*nodes, *takes, *cast, *places]
        tree = StoryTree.from_entities(entities if root_read else [made.tree.root, *entities])
        # a take made from a chosen take that was lost (or from a turn now under the start) is out of date
        restaled = restale(tree, tree.root_id)
        entities = [restaled.get(entity.id, entity) if isinstance(entity, Take) else entity for entity in entities]
        patch: Patch = {key_of(entity): entity for entity in entities}
        if root_read:
            patch = {(EntityKind.NODE, made.tree.root_id): None, **patch}
        made.database.write_patch(patch, _orders_after(made.tree, patch))
        unreadable = [rel for rel in media_of(entities) if not _copy_media(folder, rel, target)]
    reopened = Project.open(target)
    return Salvaged(reopened, len(nodes) - (1 if root_read else 0), len(takes), len(cast), len(places),
                    not faults and not lost, lost, moved, unreadable)
