"""Work folders beside a destination, and the cleaning of those a killed process left.

Bundles are unpacked, exports written and new projects built in a hidden folder next to
where they end up (same file system, so the final rename is atomic). Each work folder
holds an ``.owner`` file that its process keeps ``flock``-ed: when the process dies,
even by SIGKILL, the kernel drops the lock, and the next run in the same place sees a
folder nobody owns and removes it (:func:`sweep`).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from studio.storage.atomic import fsync_dir

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

OWNER_NAME = ".owner"
LEGACY_MIN_AGE_S = 3600.0
"""A work folder without an owner file (from an older version, or a process killed
between creating it and locking it) is removed only when it is at least this old."""


TAIL_CHARS = 10
"""The random hex tail that ends every work folder's name."""
_WORK_NAME_RE = re.compile(rf"\..*-[0-9a-f]{{{TAIL_CHARS}}}", re.DOTALL)
"""A name a :class:`StagingDir` could have: hidden, and ending in a prefix's ``-`` and the tail."""


class StagingDir:
    """A hidden work folder ``parent/<prefix><random>`` owned by this process."""

    def __init__(self, parent: Path, prefix: str) -> None:
        self.parent = parent
        self.prefix = prefix
        self.path = parent / f"{prefix}{uuid.uuid4().hex[:TAIL_CHARS]}"
        os.mkdir(self.path)  # the usual mode (0777 minus the umask), unlike mkdtemp's 0700
        self._owner: int | None = None
        try:
            self._owner = os.open(self.path / OWNER_NAME, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            if fcntl is not None:
                fcntl.flock(self._owner, fcntl.LOCK_EX)  # a sweeper may hold it for a moment
            os.write(self._owner, str(os.getpid()).encode())  # written: the folder is owned
        except BaseException:
            self.remove()
            raise

    def release_owner(self) -> None:
        """Drop the owner file (before the folder becomes the finished result)."""
        fd, self._owner = self._owner, None
        if fd is not None:
            with contextlib.suppress(OSError):
                (self.path / OWNER_NAME).unlink()
            os.close(fd)

    def remove(self) -> None:
        """Remove the folder and everything in it (idempotent)."""
        fd, self._owner = self._owner, None
        shutil.rmtree(self.path, ignore_errors=True)
        if fd is not None:
            os.close(fd)

    def __enter__(self) -> StagingDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def _abandoned(folder: Path, now: float) -> bool:
    owner = folder / OWNER_NAME
    try:
        fd = os.open(owner, os.O_RDONLY)
    except FileNotFoundError:
        try:
            return now - folder.stat().st_mtime >= LEGACY_MIN_AGE_S
        except OSError:
            return False
    except OSError:
        return False
    try:
        if fcntl is None:  # pragma: no cover - Windows: only old folders go
            return now - folder.stat().st_mtime >= LEGACY_MIN_AGE_S
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # its process is alive
        if os.pread(fd, 32, 0):
            return True  # owned once, and its owner is gone
        # Empty: its creator has not locked it yet (or died just then).
        return now - folder.stat().st_mtime >= LEGACY_MIN_AGE_S
    finally:
        os.close(fd)


COPY_SCRATCH_PREFIX = ".kamishibai-copy-"
"""The work folder the window's Save a copy writes its bundle in, beside the new project
(``studio.ui.session.save_copy``). Besides the next copy into the same place, opening a
project for writing removes those a killed copy left beside it (:func:`sweep_copy_scratch`)."""


def sweep_copy_scratch(parent: Path) -> list[Path]:
    """Remove the Save a copy work folders in ``parent`` whose studio is gone (see :func:`sweep`):
    a copy killed while it wrote its bundle leaves one as big as the project, and the next
    copy may never be made into that folder. One a live studio still writes is kept."""
    return sweep(parent, lambda name: name.startswith(COPY_SCRATCH_PREFIX))


def staging_prefix(name: str, purpose: str) -> str:
    """The hidden work folder's prefix for making ``name`` beside it: ``.<name>.<purpose>-``,
    the name cut to 40 characters so that a name near the file system's limit of 255 bytes
    still leaves room for the prefix and the random tail (it used to fail as "can't be
    written: File name too long")."""
    return f".{name[:40]}.{purpose}-"


def sweep(parent: Path, match: Callable[[str], bool]) -> list[Path]:
    """Remove the work folders in ``parent`` whose name ``match``-es and whose process is gone.

    Only names a :class:`StagingDir` could have are considered, whatever ``match`` says: they
    end in its random tail, so that a folder of the user's own that merely resembles one
    (``.holiday.import-photos`` beside an unpacked bundle) is never removed.
    Returns what was removed. Never raises: cleaning is a courtesy, not a condition."""
    removed: list[Path] = []
    now = time.time()
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        if not match(entry.name) or not _WORK_NAME_RE.fullmatch(entry.name):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
        except OSError:
            continue
        folder = Path(entry.path)
        try:
            abandoned = _abandoned(folder, now)
        except OSError:
            continue
        if abandoned:
            shutil.rmtree(folder, ignore_errors=True)
            if not folder.exists():
                removed.append(folder)
    if removed:
        fsync_dir(parent)
    return removed
