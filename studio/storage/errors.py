"""What went wrong with a project's files, said truthfully.

A read-only folder, a full disk, another process holding the project and a damaged
database are different problems with different cures; only damage calls for restoring a
backup. :func:`describe_os_error` and :func:`describe_sqlite_error` turn low-level errors
into one of the :class:`ProjectFileError` subclasses below.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import shlex
import shutil
import sqlite3
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

from studio.core.errors import StudioError

RESTORE_HINT = ("Nothing was changed. Restore it from a bundle made earlier (`kamishibai unbundle FILE.zip`), if "
                "there is one.")
"""The hint for a damaged database in a folder without a backup: most projects have none
(``project.db.bak-*`` is written only before a schema upgrade), and naming one sent people
looking for a file that was never there. :func:`restore_hint` adds those that exist."""
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
READ_ONLY_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
LOW_SPACE_BYTES = 1024 * 1024
"""Below this much free space a failed write is reported as a full disk."""


class ProjectFileError(StudioError):
    """A project file that can't be opened or written: the subclasses say why."""


class ProjectDamagedError(ProjectFileError):
    """The database itself is damaged (the only case where restoring a backup helps)."""


class ProjectTooNewError(ProjectFileError):
    """The project was saved by a newer version (a schema above ours): nothing is wrong with it."""

    def __init__(self, message: str, hint: str = "", schema_version: int = 0) -> None:
        super().__init__(message, hint)
        self.schema_version = schema_version


class ProjectReadOnlyError(ProjectFileError):
    """The project folder (or its database) can't be written: read-only disk or permissions."""


class DiskFullError(ProjectFileError):
    """No space left (or a file-size or quota limit was reached) while writing."""


class ProjectBusyError(ProjectFileError):
    """Another program holds the database (a lock SQLite could not get in time)."""


class Problem(StrEnum):
    READ_ONLY = "read-only"
    FULL = "full"
    DAMAGED = "damaged"
    BUSY = "busy"
    OTHER = "other"


def free_bytes(folder: Path) -> int | None:
    """Free space on the disk holding ``folder`` (None if it can't be told)."""
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return None


def file_size_limited() -> bool:
    """True when this process runs under a file-size limit (``ulimit -f``)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return False
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return soft != resource.RLIM_INFINITY


def folder_writable(folder: Path) -> bool:
    """``access(W_OK)``: false on a read-only file system even for root."""
    return os.access(folder, os.W_OK)


FILE_SIZE_LIMIT_HINT = ("Nothing was lost. Raise the file-size limit (`ulimit -f unlimited` in the shell, or the "
                        "limit of the service that starts the studio), then try again.")
"""Freeing space does nothing for a file-size limit: the disk may have plenty."""


def full_error(folder: Path, what: str) -> DiskFullError:
    free = free_bytes(folder)
    hint = "Nothing was lost. Free some space, then try again."
    if free is not None and free < LOW_SPACE_BYTES:
        reason = f"the disk holding {folder} is full ({free:,} bytes free)"
    elif file_size_limited():
        reason = "a file-size limit (ulimit -f) was reached"
        hint = FILE_SIZE_LIMIT_HINT
    else:
        reason = f"the disk holding {folder} is full (or a quota or file-size limit was reached)"
    return DiskFullError(f"Can't {what}: {reason}.", hint=hint)


def read_only_error(folder: Path, what: str) -> ProjectReadOnlyError:
    return ProjectReadOnlyError(
        f"Can't {what}: the project folder {folder} is read-only.",
        hint="Reading commands (tree, info, queue, export, bundle) still work. To change the project, "
        "copy it to a folder you can write to, or make this one writable.",
    )


def unreadable_error(path: Path, folder: Path, what: str) -> ProjectFileError:
    """A project file (or its folder) that file permissions keep this user from reading (a
    project copied from another account, ``chmod 000``): neither a read-only folder, where
    reading still works, nor a missing file, which the system's words alone suggest."""
    return ProjectFileError(
        f"Can't {what}: permission denied: this user may not read {path}.",
        hint=f"Nothing was changed. Ask the owner of {folder} for access, or, as its owner, give yourself access "
        f"(`chmod -R u+rwX {shlex.quote(str(folder))}`), then try again.")


def read_only_file(folder: Path) -> Path | None:
    """The project's database file (or one of SQLite's side files) that can't be written in
    a folder that can (``chmod a-w project.db``, a file copied from a read-only medium):
    the folder is not what is read-only. None when there is none, or the folder is read-only."""
    if not folder_writable(folder):
        return None
    for name in ("project.db", "project.db-wal", "project.db-shm"):
        file = folder / name
        if os.path.isfile(file) and not os.access(file, os.W_OK):
            return file
    return None


def read_only_file_error(file: Path, what: str) -> ProjectReadOnlyError:
    return ProjectReadOnlyError(
        f"Can't {what}: {file} is read-only (its folder is not).",
        hint="Reading commands (tree, info, queue, export, bundle) still work. To change the project, make the file "
        f"writable (`chmod u+w {shlex.quote(str(file))}`), or copy the project to a folder you own.")


_UNWRITABLE_REASONS = {
    errno.EROFS: "it is on a read-only disk",
    errno.EACCES: "permission denied: it is read-only for this user",
    errno.EPERM: "the system does not permit new files there",
}


def unwritable_folder_error(error: OSError, folder: Path, what: str) -> ProjectFileError:
    """What to say when nothing can be made in ``folder``, a destination's folder that exists
    (a new project's, an unpacked bundle's): it can't be written, and why, rather than the
    bare error of the first file tried there, or a free-space figure that a folder such as
    ``/proc`` (where every new name is "No such file or directory") only seems to lack."""
    problem = classify_errno(error.errno)
    if problem is Problem.FULL:
        return full_error(folder, what)
    reason = _UNWRITABLE_REASONS.get(error.errno or 0) or (
        f"new files and folders can't be made there: {error.strerror or error}")
    kind = ProjectReadOnlyError if problem is Problem.READ_ONLY else ProjectFileError
    return kind(f"Can't {what}: the folder {folder} can't be written ({reason}).",
                hint="Nothing was written. Choose a folder you can write to.")


def make_destination_folder(folder: Path, what: str) -> list[Path]:
    """Create ``folder`` (and the folders above it) for a destination, or say truthfully why
    it can't be: the nearest folder that exists can't be written, or a file (or a broken
    link) is in the way. Returns the folders it made, the deepest first (see
    :func:`destination_folder`)."""
    missing = list(itertools.takewhile(lambda p: not os.path.lexists(p), (folder, *folder.parents)))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return missing
    except OSError as error:
        failure = error
    if failure.errno == errno.ENAMETOOLONG:
        raise describe_os_error(failure, folder, what) from None
    existing = next((p for p in (folder, *folder.parents) if os.path.lexists(p)), None)
    if existing is not None and not existing.is_dir():
        raise ProjectFileError(f"Can't {what}: {existing} is not a folder.",
                               hint="Nothing was written. Choose another place.") from None
    if existing is None or existing == folder:  # nothing above it to blame
        raise describe_os_error(failure, folder, what) from None
    raise unwritable_folder_error(failure, existing, what) from None


@contextlib.contextmanager
def destination_folder(folder: Path, what: str) -> Iterator[None]:
    """:func:`make_destination_folder` for the block, whose failure removes again the folders
    it made (while they are empty): a refused bundle or a project that could not be made
    left ``new/deeper/`` behind, empty, where the user had asked for ``new/deeper/story``."""
    made = make_destination_folder(folder, what)
    try:
        yield
    except BaseException:
        for path in made:  # the deepest first; a folder something was put in stays, with those above it
            try:
                os.rmdir(path)
            except OSError:
                break
        raise


def pending_wal(folder: Path) -> Path | None:
    """The database's ``-wal`` file when it holds changes not yet written into the
    database and there is no ``-shm`` file: SQLite can only read those changes by making
    the ``-shm`` file, which a read-only folder forbids, so no command can read the project
    there (None otherwise)."""
    wal = folder / "project.db-wal"
    try:
        pending = wal.stat().st_size > 0 and not (folder / "project.db-shm").exists()
    except OSError:
        return None
    return wal if pending and not folder_writable(folder) else None


def pending_wal_error(folder: Path, wal: Path, what: str) -> ProjectReadOnlyError:
    return ProjectReadOnlyError(
        f"Can't {what}: the project has changes not yet written into project.db (in {wal.name}), and reading "
        f"them needs a writable folder; the project folder {folder} is read-only.",
        hint="Copy the project folder to a place you can write to and open the copy there (or make this "
        "folder writable). Nothing was changed.",
    )


def classify_errno(number: int | None) -> Problem:
    if number in FULL_ERRNOS:
        return Problem.FULL
    if number in READ_ONLY_ERRNOS:
        return Problem.READ_ONLY
    return Problem.OTHER


def describe_os_error(error: OSError, folder: Path, what: str) -> ProjectFileError:
    """A truthful :class:`ProjectFileError` for an OSError met while trying to ``what``."""
    problem = classify_errno(error.errno)
    if problem is Problem.FULL:
        return full_error(folder, what)
    if problem is Problem.READ_ONLY:
        return read_only_error(folder, what)
    return ProjectFileError(f"Can't {what}: {error.strerror or error}.")


def classify_sqlite(error: sqlite3.Error, folder: Path) -> Problem:
    """Which problem an SQLite error means, checked against the folder where it is ambiguous."""
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error).lower()
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return Problem.FULL
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in text or "not a database" in text:
        return Problem.DAMAGED
    if name.startswith("SQLITE_BUSY") or "database is locked" in text:
        return Problem.BUSY
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM")) or "readonly" in text:
        return Problem.READ_ONLY
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) or "disk i/o error" in text or "unable to open" in text:
        # An I/O error has no errno; the folder tells whether it was space or permissions.
        if not folder_writable(folder):
            return Problem.READ_ONLY
        free = free_bytes(folder)
        if (free is not None and free < LOW_SPACE_BYTES) or file_size_limited():
            return Problem.FULL
    return Problem.OTHER


def existing_backups(folder: Path) -> list[Path]:
    """The database backups really in the project ``folder`` (``project.db.bak-v3``…, made
    before an upgrade), newest first; none in most projects."""
    try:
        found = [path for path in folder.glob("project.db.bak-*") if path.is_file()]
        return sorted(found, key=lambda path: path.stat().st_mtime, reverse=True)
    except OSError:
        return []


def restore_hint(folder: Path) -> str:
    """What to do about a damaged ``project.db`` in ``folder``: restore a bundle, or one of the
    backups the folder really holds, each named (none is named where there is none)."""
    backups = existing_backups(folder)
    if not backups:
        return RESTORE_HINT
    names = ", ".join(shlex.quote(str(path)) for path in backups)
    which = "the backup" if len(backups) == 1 else "a backup"
    return (f"Nothing was changed. Restore it from a bundle made earlier (`kamishibai unbundle FILE.zip`), or from "
            f"{which} made before an upgrade (it holds the story as it was then): {names}.")


def describe_sqlite_error(error: sqlite3.Error, folder: Path, what: str) -> ProjectFileError:
    """A truthful :class:`ProjectFileError` for an SQLite error met while trying to ``what``."""
    db = folder / "project.db"
    problem = classify_sqlite(error, folder)
    if problem is Problem.FULL:
        return full_error(folder, what)
    if problem is Problem.READ_ONLY:
        wal = pending_wal(folder)
        # not even reading works here: don't say that it does
        if wal is not None:
            return pending_wal_error(folder, wal, what)
        file = read_only_file(folder)
        return read_only_error(folder, what) if file is None else read_only_file_error(file, what)
    if problem is Problem.DAMAGED:
        return ProjectDamagedError(f"Can't {what}: {db} is damaged ({error}).", hint=restore_hint(folder))
    if problem is Problem.BUSY:
        return ProjectBusyError(f"Can't {what}: another program keeps {db} locked ({error}).",
                                hint="Close other programs that use this file (an SQLite browser?), then try again.")
    return ProjectFileError(f"Can't {what}: {db}: {error}.",
                            hint="The database does not look damaged; check the disk and try again.")


class ProjectMovedError(ProjectFileError):
    """The open project's folder was moved, deleted or replaced: its database is still open
    (by file handle), but a file written by the folder's path would land elsewhere."""


class ProjectDatabaseLinkError(ProjectFileError):
    """A project's ``project.db`` is a symbolic link (to another project's database, say)."""
