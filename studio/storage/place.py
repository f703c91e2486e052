"""Whether an open project's folder is still where it was opened.

SQLite keeps the database open by file handle, so a project whose folder is moved (or
deleted) while it is open goes on reading and committing rows; but media files are written
by path. Written after the move, a take's clip or an imported picture would land at the old
place (the folders above it made again: a ghost project folder), named by rows committed in
the moved database; after a delete, everything would go to files nobody can reach.

So the project remembers its database file's identity (``st_dev``, ``st_ino``) when it opens
it, and :func:`check_in_place` compares that with what the path names now (one ``stat``)
before media are written and before rows are committed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from studio.storage.errors import ProjectMovedError

_PROC_FDS = Path("/proc/self/fd")
_DELETED = " (deleted)"
MAX_FDS_SEARCHED = 4096
"""Where the database went is looked for among this many of the process's open files at most."""


class FileIdentity(NamedTuple):
    """Which file a path names: the same pair means the same file, wherever it is now."""

    device: int
    inode: int


def identity_of(info: os.stat_result) -> FileIdentity:
    return FileIdentity(info.st_dev, info.st_ino)


def file_identity(path: Path) -> FileIdentity | None:
    """The identity of the file at ``path`` now (None: nothing is there, or it can't be told)."""
    try:
        return identity_of(os.stat(path))
    except OSError:
        return None


def where_now(identity: FileIdentity) -> str | None:
    """Where the open file with ``identity`` is now, as the kernel names it (Linux only):
    its new path, ``"PATH (deleted)"`` once it was deleted, or None when that can't be told.
    Only asked once a write was refused, never on the way to a write."""
    try:
        names = sorted(os.listdir(_PROC_FDS), key=lambda name: int(name) if name.isdigit() else -1)
    except OSError:
        return None
    for name in names[:MAX_FDS_SEARCHED]:
        link = _PROC_FDS / name
        try:
            if identity_of(os.stat(link)) == identity:
                return os.readlink(link)
        except OSError:
            continue
    return None


def check_in_place(folder: Path, db_path: Path, opened: FileIdentity, what: str) -> None:
    """Raise :class:`ProjectMovedError` unless ``db_path`` still names the database file
    opened as ``opened``: the project ``folder`` was moved, deleted or replaced since."""
    if file_identity(db_path) == opened:
        return
    raise moved_error(folder, db_path, opened, what)


def moved_error(folder: Path, db_path: Path, opened: FileIdentity, what: str) -> ProjectMovedError:
    """What to say: where the folder went when the system can tell, and what to do."""
    now = where_now(opened)
    elsewhere = "" if file_identity(db_path) is None else f" (another {db_path.name} is there now)"
    if now is not None and now.endswith(_DELETED):
        return ProjectMovedError(
            f"Can't {what}: the project folder {folder} was deleted while the project was open{elsewhere}.",
            hint="Nothing was written, and no folder was made in its place. Changes can't be saved into a deleted "
            f"folder: put it back at {folder} (from the trash, or unpack a bundle there), then open it again.")
    if now is not None and Path(now) != db_path:
        where = Path(now).parent
        return ProjectMovedError(
            f"Can't {what}: the project folder {folder} was moved to {where} while the project was open{elsewhere}.",
            hint=f"Nothing was lost, and nothing was written at the old place. Put the folder back at {folder}, or "
            f"close the project and open it at {where}.")
    return gone_error(folder, what, elsewhere)


def gone_error(folder: Path, what: str, elsewhere: str = "") -> ProjectMovedError:
    """The project ``folder`` is not where it was opened, and where it went can't be told."""
    return ProjectMovedError(
        f"Can't {what}: the project folder {folder} was moved or deleted while the project was open{elsewhere}.",
        hint="Nothing was lost, and nothing was written at the old place. Put the folder back where it was, or "
        "close the project and open it where it is now.")


def project_folder_of(path: Path, media_dir: str) -> Path | None:
    """The project folder that a media file's ``path`` lies in: the folder above its
    ``media_dir`` part (None for a path outside any media folder)."""
    for ancestor in path.parents:
        if ancestor.name == media_dir:
            return ancestor.parent
    return None


def check_folder_there(path: Path, media_dir: str, what: str) -> None:
    """Refuse to ``what`` (write ``path``, a media file) when its project folder is gone:
    the writer would make it again (a ghost folder at the old place). For writers that know
    the project only by its folder's path (an engine host in a child process); a project
    that is open here asks :func:`check_in_place` as well, which also tells a moved folder
    from another one put in its place."""
    folder = project_folder_of(path, media_dir)
    if folder is not None and not folder.is_dir():
        raise gone_error(folder, what)
