"""The project database: opening with checks, migrations, and one-transaction writes.

Opening checks everything before anything is written: an SQLite file, our application,
a schema version we can read, a schema holding only the objects our migrations create
(see :mod:`studio.storage.schema_check`) and no damage. Those checks read through a
connection that creates no ``-wal``/``-shm`` files where there were none, so a refused
project is left exactly as it was.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import re
import secrets
import sqlite3
import stat
import threading
import urllib.parse
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.core.changes import Patch
from studio.storage.atomic import create_locked, fsync_dir, temp_file_abandoned
from studio.storage.errors import (
    Problem,
    ProjectDamagedError,
    ProjectDatabaseLinkError,
    ProjectFileError,
    ProjectReadOnlyError,
    ProjectTooNewError,
    classify_sqlite,
    describe_os_error,
    describe_sqlite_error,
    restore_hint,
    unreadable_error,
)
from studio.storage.lock import writer_is_live
from studio.storage.place import FileIdentity, file_identity
from studio.storage.rows import ORDERED_TABLES, TABLES, RowValueError, entity_row, stored_repr
from studio.storage.schema import APP_ID, MIGRATIONS, schema_version
from studio.storage.schema_check import compare, run_script
from studio.storage.wal_check import (
    TOKEN_MASK,
    WalJudgement,
    WalVerdict,
    current_token,
    judge_wal,
    next_user_version,
    set_aside,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    import sqlite_utils

__all__ = ["Database", "DatabaseFacts", "ForeignSchemaError", "ProjectFileError", "UnfinishedChangeError",
           "inspect_database", "read_version"]

SQLITE_MAGIC = b"SQLite format 3\x00"
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
log = logging.getLogger(__name__)


class ForeignSchemaError(ProjectFileError):
    """The database holds schema objects (triggers, views, tables, columns) we did not create."""


class UnfinishedChangeError(ProjectFileError):
    """A program stopped in the middle of a change in rollback-journal mode, leaving a hot
    ``project.db-journal``: SQLite undoes it on the next connection that may write, and no
    read-only connection can read the file until then. Nothing is damaged."""


def sqlite_uri(path: Path, **params: str) -> str:
    """A ``file:`` URI for ``path``: its bytes as the file system has them (a name need not
    be UTF-8), any character (``?``, ``#``, ``%``, newlines) quoted."""
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return f"file:{urllib.parse.quote(os.fsencode(path.absolute()))}" + (f"?{query}" if query else "")


def wal_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-wal")


def _wal_empty(db_path: Path) -> bool:
    try:
        return wal_path(db_path).stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")
"""The first bytes of a rollback journal that still holds a change to undo (SQLite zeroes or
deletes the journal once its transaction is committed or rolled back)."""


def journal_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + "-journal")


def _hot_journal(db_path: Path) -> bool:
    """Whether ``project.db-journal`` holds a change that a stopped program did not finish
    (in rollback-journal mode: the database file may then hold half of it)."""
    try:  # never waits: a named pipe planted there is opened without blocking, and is no journal
        fd = os.open(journal_path(db_path), os.O_RDONLY | _NONBLOCK)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, len(JOURNAL_MAGIC)) == JOURNAL_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def _unfinished_change(db_path: Path) -> UnfinishedChangeError:
    return UnfinishedChangeError(
        f"Can't read {db_path} yet: a program stopped in the middle of changing it, and its unfinished "
        f"change (in {journal_path(db_path).name}) must be undone first, which needs the project opened "
        "for writing.",
        hint="Open the project once in the studio, or with a command that changes it: the unfinished change is "
        "undone and the project is as it was last saved. On a read-only disk, copy the project folder (with "
        f"{journal_path(db_path).name}) to a place you can write to and open the copy. Nothing was changed.")


def _finish_journal(db_path: Path) -> None:
    """Let SQLite undo a hot journal's unfinished change (any connection that may write does
    so on its first read); the caller holds the writer lock. Reading the file before that
    would see the half-written change (as damage, or worse, as data)."""
    try:
        conn = sqlite3.connect(sqlite_uri(db_path), uri=True, isolation_level=None)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise describe_sqlite_error(error, db_path.parent, f"open {db_path}") from None


def connect_read_only(db_path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    """A read-only connection. ``immutable`` reads the file as it is (no ``-wal``/``-shm``
    files are created, no locks are taken): only for a file nobody else can be writing."""
    params = {"mode": "ro", **({"immutable": "1"} if immutable else {})}
    return sqlite3.connect(sqlite_uri(db_path, **params), uri=True, check_same_thread=False, isolation_level=None)


@dataclass(frozen=True)
class DatabaseFacts:
    version: int
    meta: dict[str, str]


SIDE_SUFFIXES = ("-journal", "-wal", "-shm")
"""The files SQLite keeps beside a database (its unfinished changes and their index)."""
_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def _check_side_files(db_path: Path) -> None:
    """Refuse a database whose SQLite side files (``-journal``, ``-wal``, ``-shm``) are not
    plain files: opening a named pipe waits for good (this module's look for a hot journal
    and SQLite itself), and SQLite refuses a link or a folder only as "unable to open"."""
    for suffix in SIDE_SUFFIXES:
        side = db_path.with_name(db_path.name + suffix)
        try:
            mode = os.lstat(side).st_mode
        except FileNotFoundError:
            continue
        except PermissionError:  # the folder can't be searched
            raise unreadable_error(db_path.parent, db_path.parent, f"read {side}") from None
        except OSError as error:
            raise describe_os_error(error, db_path.parent, f"read {side}") from None
        if stat.S_ISREG(mode):
            continue
        what = next((name for test, name in _KINDS if test(mode)), "not a plain file")
        raise ProjectFileError(f"Can't open {db_path.parent}: SQLite's side file {side.name} is {what}, not a file.",
                               hint=f"Nothing was changed. {side.name} holds only SQLite's work on {db_path.name}: "
                               f"remove {side} (a link: put the file it leads to in its place), then try again.")


def _check_not_a_link(db_path: Path) -> None:
    """Refuse a ``project.db`` that is a symbolic link, for reading as for writing.

    For writing, the project's writer lock (:mod:`studio.storage.lock`) is taken in the folder
    that holds the link: a link to another project's database would be written under this
    folder's lock while that project's own writer holds the other, and the two would write
    the same rows from different trees. Reading through a link harms no file, but it is
    refused too: the rows' media paths are relative to the folder holding the database, so
    through a link they name files of a folder that database never wrote (players and
    exports show another story's clips, or none), and a bundle made from it would pack that
    mixture as one project."""
    try:
        if not os.path.islink(db_path):
            return
        target = os.readlink(db_path)
    except OSError:
        return  # not a link (or gone): the checks after this one say what is wrong
    leads = Path(target) if os.path.isabs(target) else db_path.parent / target
    where = f"{leads} (which does not exist)" if not os.path.exists(db_path) else str(leads)
    raise ProjectDatabaseLinkError(
        f"Can't open {db_path.parent}: its {db_path.name} is a symbolic link to {where}, not a file of its own.",
        hint=f"Nothing was changed. Open the project folder the link leads to ({leads.parent}) instead; for a "
        "copy of that project, bundle it (`kamishibai bundle`) and unbundle the bundle elsewhere.")


def _check_header(db_path: Path) -> None:
    _check_not_a_link(db_path)
    _check_side_files(db_path)
    if not db_path.exists():
        raise ProjectFileError(f"{db_path} does not exist.", hint="Is this a Kamishibai project folder?")
    if not db_path.is_file():
        raise ProjectFileError(f"{db_path} is not a file.", hint="Is this a Kamishibai project folder?")
    try:
        with open(db_path, "rb") as handle:
            header = handle.read(100)
    except PermissionError:
        raise unreadable_error(db_path, db_path.parent, f"read {db_path}") from None
    except OSError as error:
        raise describe_os_error(error, db_path.parent, f"read {db_path}") from None
    if not header:
        raise ProjectDamagedError(f"{db_path} is empty: the project database is damaged.",
                                  hint=restore_hint(db_path.parent))
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise ProjectDamagedError(f"{db_path} is damaged or is not a Kamishibai project (not an SQLite database).",
                                  hint=restore_hint(db_path.parent))


FOREIGN_HINT = ("It belongs to another program and was left as it is. Open a folder that `kamishibai new` "
                "or New project made (it holds project.db and media/), or make a new project elsewhere.")


def _facts(conn: sqlite3.Connection, db_path: Path) -> DatabaseFacts:
    """App, version and schema, read from ``conn``; raises the matching ProjectFileError."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "meta" not in tables:
        raise ProjectFileError(f"{db_path} is an SQLite database but not a Kamishibai project.", hint=FOREIGN_HINT)
    meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta").fetchall()}
    if meta.get("app") != APP_ID:
        raise ProjectFileError(f"{db_path} is not a Kamishibai project (app is {meta.get('app')!r}).",
                               hint=FOREIGN_HINT)
    text = meta.get("schema_version", "")
    version = int(text) if text.strip().isdigit() and len(text) < 10 else 0
    if version < 1:
        raise ProjectDamagedError(f"{db_path} has an invalid schema version {text!r} (it should be 1 or more).",
                                  hint=restore_hint(db_path.parent))
    if version > schema_version():
        raise ProjectTooNewError(
            f"{db_path} was saved by a newer Kamishibai Studio (schema {version}); "
            f"this version reads up to schema {schema_version()}.",
            hint="Update Kamishibai Studio to open it. The project was not modified.",
            schema_version=version,
        )
    difference = compare(conn, MIGRATIONS[:version])
    if not difference.empty:
        raise ForeignSchemaError(
            f"Refused {db_path}: its schema (version {version}) holds what Kamishibai did not create: "
            f"{difference.describe()}. Such objects could change what the studio stores.",
            hint="Nothing was changed. Open a trusted copy of the project instead.",
        )
    return DatabaseFacts(version, meta)


def stray_wal(db_path: Path, *, writer_is_us: bool = False) -> WalVerdict | None:
    """The verdict on ``db_path``'s WAL when it does not belong to the file (see
    :mod:`studio.storage.wal_check`), else None. Judged only where nobody else can be
    writing (a live writer's WAL is its own, and may be moving under the read): by the
    holder of the writer lock (``writer_is_us``), or where nobody holds it."""
    if _wal_empty(db_path) or (not writer_is_us and writer_is_live(db_path.parent)):
        return None
    verdict = judge_wal(db_path)
    return verdict if verdict.judgement is WalJudgement.FOREIGN else None


def _quick_check(conn: sqlite3.Connection) -> str:
    return str(conn.execute("PRAGMA quick_check").fetchone()[0])


def inspect_database(db_path: Path, *, integrity: bool = True, writer_is_us: bool = False) -> DatabaseFacts:
    """Every check of :meth:`Database.open`, without writing anything.

    When there is no ``-wal`` file the checks read the file as immutable, so a refused
    project gets none created; a damage report is then confirmed through a normal
    connection (a writer that started meanwhile could have moved pages under the read).
    A WAL that does not belong to the file (:func:`stray_wal`) is not read either.
    ``integrity=False`` skips the (slow) integrity check.
    """
    _check_header(db_path)
    stray = stray_wal(db_path, writer_is_us=writer_is_us) is not None
    # A hot journal must be read through (an immutable read would take the half-written
    # pages for the project): a read-only connection then refuses, and says so.
    immutable = (_wal_empty(db_path) or stray) and not _hot_journal(db_path)
    try:
        conn = connect_read_only(db_path, immutable=immutable)
    except sqlite3.Error as error:
        raise describe_sqlite_error(error, db_path.parent, f"open {db_path}") from None
    try:
        try:
            facts = _facts(conn, db_path)
            check = _quick_check(conn) if integrity else "ok"
        except sqlite3.Error as error:
            if getattr(error, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
                raise _unfinished_change(db_path) from None
            if classify_sqlite(error, db_path.parent) is Problem.DAMAGED:
                raise ProjectDamagedError(f"{db_path} is damaged or is not a Kamishibai project ({error}).",
                                          hint=restore_hint(db_path.parent)) from None
            raise describe_sqlite_error(error, db_path.parent, f"read {db_path}") from None
    finally:
        conn.close()
    if check != "ok" and immutable and not stray:
        with contextlib.suppress(sqlite3.Error):
            confirm = connect_read_only(db_path)
            try:
                check = _quick_check(confirm)
            finally:
                confirm.close()
    if check != "ok":
        raise ProjectDamagedError(f"{db_path} is damaged: {check}.", hint=restore_hint(db_path.parent))
    return facts


def read_version(db_path: Path) -> int:
    """The schema version, after every check (nothing is written)."""
    return inspect_database(db_path).version


def _set_aside_stray_wal(db_path: Path) -> list[str]:
    """Rename a WAL (and its index) that does not belong to ``db_path`` before SQLite would
    replay it into the file; the caller holds the writer lock. Returns what to tell the user."""
    verdict = stray_wal(db_path, writer_is_us=True)
    if verdict is None:
        return []
    wal = wal_path(db_path)
    try:
        moved = set_aside(db_path)
    except OSError as error:
        raise describe_os_error(error, db_path.parent, f"set aside {wal.name}, which does not belong to "
                                f"{db_path.name} ({verdict.reason})") from None
    names = " and ".join(path.name for path in moved)
    note = (f"{wal.name} did not belong to {db_path.name}: {verdict.reason} (a copy of {db_path.name} put back "
            f"after a crash, say). Its changes were not applied: it was set aside as {names}, in "
            f"{db_path.parent}, and the project is {db_path.name} as it is.")
    log.warning("kamishibai: %s", note)
    return [note]


def _stray_wal_unread(db_path: Path, verdict: WalVerdict) -> str:
    wal = wal_path(db_path)
    return (f"{wal.name} does not belong to {db_path.name}: {verdict.reason} (a copy of {db_path.name} put back "
            f"after a crash, say). It was not read: the project is shown as {db_path.name} holds it. Opening the "
            f"project for writing sets {wal.name} aside (renamed, not deleted).")


MAX_BACKUPS_PER_VERSION = 1000
"""How many ``project.db.bak-vN``, ``.1``, ``.2``... names are tried before giving up."""


def backup_name(db_path: Path, version: int) -> Path:
    """The first free backup name: ``project.db.bak-vN``, else ``project.db.bak-vN.1``, ``.2``...
    An existing backup (an earlier upgrade's, or a file the user keeps there) is never replaced."""
    base = f"{db_path.name}.bak-v{version}"
    for number in range(MAX_BACKUPS_PER_VERSION):
        target = db_path.with_name(base if number == 0 else f"{base}.{number}")
        if not os.path.lexists(target):
            return target
    raise ProjectFileError(f"Can't back up {db_path} before upgrading it: {base} and {MAX_BACKUPS_PER_VERSION - 1} "
                           "numbered backups beside it already exist.",
                           hint=f"Move the {base}* files you don't need elsewhere, then try again. "
                           "Nothing was changed.")


def _backup(db_path: Path, version: int) -> Path:
    """A consistent copy (SQLite's backup API: the WAL included) under :func:`backup_name`;
    returns where it was written."""
    target = backup_name(db_path, version)
    part = backup_part_path(target)
    try:
        with backup_part(part):
            source = connect_read_only(db_path)
            try:
                copy = sqlite3.connect(part)
                try:
                    source.backup(copy)
                finally:
                    copy.close()
            finally:
                source.close()
            with open(part, "rb+") as handle:
                os.fsync(handle.fileno())
            _place(part, target)
    except (OSError, sqlite3.Error) as error:
        with contextlib.suppress(OSError):
            part.unlink()
        what = f"back up {db_path.name} before upgrading it"
        if isinstance(error, OSError):
            raise describe_os_error(error, db_path.parent, what) from None
        raise describe_sqlite_error(error, db_path.parent, what) from None
    default = f"{db_path.name}.bak-v{version}"
    if target.name == default:
        log.info("%s: backed up as %s before upgrading it from schema %d", db_path, target.name, version)
    else:  # the user may look for the usual name: say where this copy went
        log.warning("kamishibai: upgrading %s from schema %d: the existing %s was kept, and the database as it "
                    "was is backed up as %s", db_path, version, default, target.name)
    return target


def backup_part_path(target: Path) -> Path:
    """Where the backup ``target`` (``project.db.bak-vN``) is written before it gets its name:
    ``.project.db.bak-vN.part``."""
    return target.with_name(f".{target.name}.part")


@contextlib.contextmanager
def backup_part(part: Path) -> Iterator[Path]:
    """Make ``part`` (it must not exist), empty and ``flock``-ed by this process until the
    block ends: a backup cut short (the process killed) leaves a file nobody locks, which the
    next opening for writing removes (:func:`sweep_backup_parts`); one another process still
    writes stays. One left that nobody locks (too young for the sweep to be sure of it) is
    taken over: the caller holds the project's writer lock."""
    try:
        fd = create_locked(part)
    except FileExistsError:
        fd = _take_over(part)
    try:
        yield part
    finally:
        os.close(fd)


def _take_over(part: Path) -> int:
    """``part``, a plain file nobody locks, emptied and locked for this process; else the
    FileExistsError that a live writer's (or a link's) name gets."""
    fd = os.open(part, os.O_RDWR | os.O_NOFOLLOW)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileExistsError(errno.EEXIST, "not a plain file", str(part))
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                raise FileExistsError(errno.EEXIST, "another process writes it", str(part)) from None
        os.ftruncate(fd, 0)
    except BaseException:
        os.close(fd)
        raise
    return fd


def sweep_backup_parts(db_path: Path) -> list[Path]:
    """Remove the half-written backups of ``db_path`` (:func:`backup_part_path`) that a process
    killed while it backed the database up left: nobody locks them (see
    :func:`~studio.storage.atomic.temp_file_abandoned`) and they begin as SQLite's copies do
    (an empty one goes only once it is old). SQLite's journal beside one goes with it. Returns what was
    removed; never raises (cleaning is a courtesy, not a condition)."""
    removed: list[Path] = []
    folder = db_path.parent
    parts = re.compile(rf"\.{re.escape(db_path.name)}\.bak-v[0-9]+(\.[0-9]+)?\.part")
    try:
        names = [entry.name for entry in os.scandir(folder)]
    except OSError:
        return removed
    for name in names:
        if not parts.fullmatch(name):
            continue
        part = folder / name
        if not temp_file_abandoned(part, _written_by_a_backup):
            continue
        with contextlib.suppress(OSError):
            part.unlink()
            removed.append(part)
        with contextlib.suppress(OSError):
            os.unlink(folder / f"{name}-journal")
    if removed:
        fsync_dir(folder)
        log.info("kamishibai: %s: removed %s, left by a backup that was cut short", folder,
                 ", ".join(path.name for path in removed))
    return removed


def _written_by_a_backup(head: bytes) -> bool:
    """Whether a file begins as a backup SQLite writes does: with its header, or with zeros
    where the header goes (SQLite writes the first page last, as the copy is committed)."""
    return head.startswith(SQLITE_MAGIC) or not head.strip(b"\0")


def _place(part: Path, target: Path) -> None:
    """Rename ``part`` to ``target`` without ever replacing a file there: a hard link fails
    if ``target`` appeared meanwhile (the rename would overwrite it); where links are not
    supported, a rename after a last look."""
    try:
        os.link(part, target)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, f"{target.name} appeared while it was being written", str(target)) \
            from None
    except OSError:  # no hard links on this file system
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, f"{target.name} appeared while it was being written",
                                  str(target)) from None
        os.replace(part, target)
        return
    os.unlink(part)


class Database:
    """One SQLite connection shared by threads under a lock (one writer at a time).

    ``read_only`` databases refuse every write with a clear message; ``immutable`` ones
    (read-only folders, full disks) read the file as it is.
    """

    def __init__(self, path: Path, *, read_only: bool = False, immutable: bool = False) -> None:
        self.path = path
        self.folder = path.parent
        self.read_only = read_only or immutable
        self.backup: Path | None = None
        """The copy made before this opening upgraded the schema (None: no upgrade)."""
        self.lock = threading.RLock()
        self.notes: list[str] = []
        """What opening did or found that the user should know (a stray WAL set aside)."""
        try:
            if self.read_only:
                conn = connect_read_only(path, immutable=immutable)
                conn.execute("SELECT 1 FROM meta LIMIT 1").fetchall()  # opens the file (and its WAL) now
            else:
                conn = sqlite3.connect(sqlite_uri(path), uri=True, check_same_thread=False, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as error:
            raise describe_sqlite_error(error, self.folder, f"open {path}") from None
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout=5000")
        self.conn = conn
        self.identity: FileIdentity | None = file_identity(path)
        """The database file opened (see :mod:`studio.storage.place`): the folder holding it
        may be moved while it is open, and this says whether its path still names it."""

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
        try:
            with database.transaction():
                for script in MIGRATIONS:
                    run_script(database.conn, script)
                rows = {"app": APP_ID, "schema_version": str(schema_version()), **meta}
                for key, value in rows.items():
                    database.set_meta(key, value)
        except BaseException:
            database.close()
            raise
        return database

    @classmethod
    def open(cls, path: Path, *, read_only: bool = False) -> Database:
        """Check ``path`` (see :func:`inspect_database`), then open it.

        For writing, an older schema is first backed up (``project.db.bak-vN``, or the first
        free ``project.db.bak-vN.1``, ``.2``...: :attr:`backup` says which) and then upgraded
        in one transaction. For reading, an older schema is read as it is; when
        SQLite can't make its shared-memory file (a read-only folder, a full disk) and no
        other process has the database open, the file is read as immutable.

        For writing (the caller holds the writer lock), a change that a stopped program left
        unfinished in a rollback journal is undone first, as SQLite does on any writing
        connection; for reading, such a file is refused (:class:`UnfinishedChangeError`).
        """
        if not read_only and _hot_journal(path):
            _check_header(path)
            _finish_journal(path)
            log.warning("kamishibai: %s: a change that a stopped program left unfinished (in %s) was undone; the "
                        "project is as it was last saved", path, journal_path(path).name)
        if read_only:
            stray = stray_wal(path)
            if stray is not None:  # read the file as it is; a writer's opening sets the WAL aside
                inspect_database(path)
                database = cls(path, immutable=True)
                database.notes.append(_stray_wal_unread(path, stray))
                return database
        else:
            notes = _set_aside_stray_wal(path)
        facts = inspect_database(path, writer_is_us=not read_only)
        if read_only:
            wal_was_empty = _wal_empty(path)
            try:
                return cls(path, read_only=True)
            except ProjectFileError:
                # SQLite could not make its shared-memory file, so no other process can be
                # writing either; with no committed frames in a WAL, the file is the truth.
                if not wal_was_empty:
                    raise
                return cls(path, immutable=True)
        sweep_backup_parts(path)  # before a backup is made: one a killed opening cut short
        backup = _backup(path, facts.version) if facts.version < schema_version() else None
        database = cls(path)
        database.backup = backup
        database.notes.extend(notes)
        try:
            if facts.version < schema_version():
                with database.transaction():
                    for script in MIGRATIONS[facts.version:]:
                        run_script(database.conn, script)
                    database.set_meta("schema_version", str(schema_version()))
        except BaseException:
            database.close()
            raise
        return database

    def _chain_commit(self) -> None:
        """Mark this commit in the database header (see :mod:`studio.storage.wal_check`): a
        new token above the one it follows, so that a WAL left by a crash can be told from
        one that belongs to another version of the file."""
        current = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        token = secrets.randbelow(TOKEN_MASK) + 1
        if token == current_token(current):
            token = token % TOKEN_MASK + 1
        self.conn.execute(f"PRAGMA user_version = {next_user_version(current, token)}")

    def _translate(self, error: sqlite3.Error, what: str) -> BaseException:
        """A truthful error for the problems a user can act on; other errors as they are."""
        if classify_sqlite(error, self.folder) is Problem.OTHER:
            return error
        return describe_sqlite_error(error, self.folder, what)

    @contextlib.contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT; rolled back on any error.

        ``durable=False`` commits without waiting for the disk (``synchronous=NORMAL``): the
        change survives a crash of the process but may be lost, whole, with a power cut or
        an OS crash. The next durable commit makes it durable too (the WAL is written in
        order), so use it only for rows that can be rebuilt from durable ones."""
        with self.lock:
            if self.read_only:
                raise ProjectReadOnlyError(f"{self.folder} was opened for reading only; the change was not saved.")
            if not durable:
                self.conn.execute("PRAGMA synchronous=NORMAL")
            try:
                with self._committing():
                    yield self.conn
            finally:
                if not durable:
                    self.conn.execute("PRAGMA synchronous=FULL")

    @contextlib.contextmanager
    def _committing(self) -> Iterator[sqlite3.Connection]:
        with self.lock:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise self._translate(error, "save the change") from None
            try:
                changes = self.conn.total_changes
                yield self.conn
                if self.conn.total_changes != changes:  # a transaction that changed nothing writes nothing
                    self._chain_commit()
            except sqlite3.Error as error:
                self._rollback()
                raise self._translate(error, "save the change") from None
            except BaseException:
                self._rollback()
                raise
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as error:
                self._rollback()
                raise self._translate(error, "save the change") from None

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every query inside sees the database at one moment."""
        with self.lock:
            self.conn.execute("BEGIN")
            try:
                yield self.conn
            finally:
                self._rollback()

    def meta(self) -> dict[str, str]:
        with self.lock:
            return {r["key"]: r["value"] for r in self.conn.execute("SELECT key, value FROM meta")}

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
            (key, value),
        )

    def write_patch(self, patch: Patch, orders: Mapping[str, Sequence[str]] | None = None) -> None:
        """Write every entity of ``patch`` (upsert, or delete for None) in one transaction.

        ``orders`` gives, for tables of :data:`~studio.storage.rows.ORDERED_TABLES`, their ids in
        the order the tree holds them after the patch: the rows are kept in that order (see
        :func:`_keep_order`). An upsert keeps a row's place; without it a member removed and
        put back by Undo (a new row) was read back last when the project was opened again."""
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
            for table, ids in (orders or {}).items():
                _keep_order(conn, table, ids)

    def values(self, table: str, columns: tuple[str, ...],
               fallbacks: dict[str, str] | None = None) -> list[tuple[Any, ...]]:
        """Every row of ``table`` as plain tuples of ``columns`` (the fast path for loading).

        A column the table lacks (an older schema read as it is) is read as its SQL value
        in ``fallbacks``. A value of another type than its column's (see
        :func:`_check_types`) raises :class:`~studio.storage.rows.RowValueError`."""
        with self.lock:
            cursor = self.conn.cursor()
            cursor.row_factory = None
            declared = cursor.execute(f"PRAGMA table_info({table})").fetchall()
            selected = list(columns)
            if fallbacks:
                present = {str(row[1]) for row in declared}
                selected = [c if c in present or c not in fallbacks else f"{fallbacks[c]} AS {c}" for c in columns]
            _check_types(cursor, table, [row for row in declared if row[1] in columns])
            order = " ORDER BY rowid" if table in ORDERED_TABLES else ""  # the order write_patch keeps
            return cursor.execute(f"SELECT {', '.join(selected)} FROM {table}{order}").fetchall()

    def execute(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Cursor:
        with self.lock:
            return self.conn.execute(sql, params)

    def close(self) -> None:
        with self.lock:
            if not self.read_only:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.conn.close()


def _keep_order(conn: sqlite3.Connection, table: str, ids: Sequence[str]) -> None:
    """Put the rows of ``table`` (one of :data:`~studio.storage.rows.ORDERED_TABLES`) in the
    order of ``ids`` by rowid: from the first row out of place on, each row is written again
    (deleted and inserted, which gives it the next rowid), in order. Rows ``ids`` does not name
    keep their order after those it names. Usually nothing moves: an edit keeps its row."""
    if table not in ORDERED_TABLES:
        raise ValueError(f"{table} keeps no order")
    stored = [str(row[0]) for row in conn.execute(f"SELECT id FROM {table} ORDER BY rowid")]
    known, named = set(stored), set(ids)
    wanted = [ident for ident in ids if ident in known] + [ident for ident in stored if ident not in named]
    first = next((i for i, (have, want) in enumerate(zip(stored, wanted, strict=True)) if have != want), None)
    if first is None:
        return
    for ident in wanted[first:]:
        row = tuple(conn.execute(f"SELECT * FROM {table} WHERE id = ?", (ident,)).fetchone())
        conn.execute(f"DELETE FROM {table} WHERE id = ?", (ident,))
        conn.execute(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in row)})", row)


_STORED_TYPES = {"TEXT": "text", "INTEGER": "integer"}
"""What SQLite's ``typeof()`` says of the values the studio stores in a column of each
declared type. (SQLite keeps any value in any column: another program may have written
a BLOB where text belongs, which the studio would only trip over later, far away.)"""


def _check_types(cursor: sqlite3.Cursor, table: str, declared: list[Any]) -> None:
    """Raise :class:`RowValueError`, naming the table, the row and the column, for the first
    value in the ``declared`` columns (``PRAGMA table_info`` rows) whose type is not what the
    studio stores there: text in a TEXT column, an integer in an INTEGER one, NULL only
    where the column allows it. Other columns (``duration``, REAL) are checked when read.

    One query that SQLite answers alone: the rows are not brought into Python twice."""
    cases: list[str] = []
    for _cid, name, kind, notnull, _default, _pk in declared:
        stored = _STORED_TYPES.get(str(kind).upper())
        if stored is not None:
            allowed = f"'{stored}'" if notnull else f"'{stored}', 'null'"
            cases.append(f"WHEN typeof({name}) NOT IN ({allowed}) THEN '{name}'")
    if not cases:
        return
    found = cursor.execute(f"SELECT rowid, id, column FROM (SELECT rowid, id, CASE {' '.join(cases)} END AS column "
                           f"FROM {table}) WHERE column IS NOT NULL LIMIT {_MISTYPED_NAMED + 1}").fetchall()
    if not found:
        return
    said = []
    for rowid, row_id, column in found[:_MISTYPED_NAMED]:  # every one at once, not one a run
        (value,) = cursor.execute(f"SELECT {column} FROM {table} WHERE rowid = ?", (rowid,)).fetchone()
        kind = next(str(row[2]).lower() for row in declared if row[1] == column)
        row = f"row {stored_repr(row_id)}" if isinstance(row_id, str) else f"row number {rowid}"
        said.append(f"table {table}, {row}: column {column} holds {_describe(value)}, not {kind}")
    if len(found) > _MISTYPED_NAMED:
        said.append(f"table {table}: more values of the wrong type")
    raise RowValueError("; ".join(said), said)


_MISTYPED_NAMED = 10
"""The mistyped values of one table a refusal names one by one."""


def _describe(value: Any) -> str:
    """A stored value, as a message names it."""
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return f"a BLOB of {len(value):,} bytes"
    kind = {str: "text", int: "an integer", float: "a real number"}.get(type(value), type(value).__name__)
    return f"{kind} ({stored_repr(value)})"
