"""Whether a project has room for a change that may have to be taken back.

`play` adds a turn, then generates its first take; when the take can't be made, the turn is
removed again. Both the take's record and that removal are writes to the database: on a disk
with no room left (or past a file-size limit, which caps how far any file may grow, the
database's log included) they fail, and the turn stayed behind without a take. Checking for
room before the turn is added keeps the promise that a failed `play` leaves the project as
it was.
"""

from __future__ import annotations

import os
from pathlib import Path

from studio.storage.errors import DiskFullError, free_bytes, full_error

CHANGE_ROOM_BYTES = 256 * 1024
"""Room a turn's changes to the database need, with a failed take's record and the turn's
removal: each is a few pages of 4 KiB in the database's write-ahead log, which only a
checkpoint into project.db empties; a generous margin over that."""

DATABASE_FILES = ("project.db", "project.db-wal")


def file_size_limit() -> int | None:
    """The file-size limit (``ulimit -f``) this process runs under, in bytes (None: none)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def check_room_for_change(folder: Path, what: str) -> None:
    """Refuse (:class:`DiskFullError`, nothing written) to ``what`` in the project at
    ``folder`` when its disk has less than :data:`CHANGE_ROOM_BYTES` free, or when a file-size
    limit leaves its database files less than that to grow: the change could be saved, but
    perhaps not taken back if the work that follows it fails."""
    free = free_bytes(folder)
    if free is not None and free < CHANGE_ROOM_BYTES:
        error = full_error(folder, what)
        raise DiskFullError(error.message, hint="Nothing of it was saved. Free some space, then try again.")
    limit = file_size_limit()
    if limit is None:
        return
    biggest = max(_size(folder / name) for name in DATABASE_FILES)
    if limit < biggest + CHANGE_ROOM_BYTES:
        raise DiskFullError(
            f"Can't {what}: a file-size limit (ulimit -f) of {limit:,} bytes leaves the project's database "
            f"({biggest:,} bytes) less room to grow than saving it may need ({CHANGE_ROOM_BYTES:,} bytes).",
            hint="Nothing of it was saved. Raise the file-size limit (`ulimit -f unlimited` in the shell, or the limit "
            "of the service that starts the studio), then try again.")
