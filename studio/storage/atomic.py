"""Atomic file writes: temp file in the same folder, fsync, rename, fsync the folder.

A temporary file asked ``locked`` is ``flock``-ed by the process that writes it for as long
as it is written: when that process dies, even by SIGKILL, the kernel drops the lock, and the
next writer in the same folder can tell the file nobody writes any more from one still being
written (:func:`sweep_temp_files`), as work folders are told (``studio.storage.staging``).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

NAME_MAX_BYTES = 255
"""The longest file name the usual file systems take (ext4, APFS, NTFS)."""
TEMP_TAIL_CHARS = 8
"""The random hex part of a temporary name (``.STEM.XXXXXXXX.part.SUFFIX``)."""
MAX_TEMP_SUFFIX_BYTES = 32
"""A target's suffix longer than this is left out of its temporary name (the suffix is
kept for encoders, which pick a format by it: ``.mp4``, ``.png``, ``.zip``)."""
UNLOCKED_EMPTY_MIN_AGE_S = 3600.0
"""An empty temporary file that nobody locks may be one whose writer has made it and not yet
locked it (or one an earlier version wrote): removed only when it is at least this old."""


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _cut_to_bytes(text: str, size: int) -> str:
    """The longest start of ``text`` that takes at most ``size`` bytes on disk (never half a
    character; names that are not UTF-8 are counted as the file system sees them)."""
    while len(os.fsencode(text)) > size:
        text = text[:-1]
    return text


def temp_path_for(target: Path) -> Path:
    """A hidden sibling of ``target`` with the same suffix (encoders pick formats by it).

    The name adds 15 bytes (the dot, the random part and ``.part``) to ``target``'s, so the
    stem is shortened where the whole would pass the file system's 255 bytes: any name the
    file system takes can be written (a name of 241 bytes and more failed as "File name too
    long")."""
    suffix = target.suffix if len(os.fsencode(target.suffix)) <= MAX_TEMP_SUFFIX_BYTES else ""
    stem = target.name[:len(target.name) - len(suffix)] if suffix else target.name
    tail = f".{uuid.uuid4().hex[:TEMP_TAIL_CHARS]}.part{suffix}"
    room = NAME_MAX_BYTES - 1 - len(os.fsencode(tail))
    return target.with_name(f".{_cut_to_bytes(stem, room) or '_'}{tail}")


_TEMP_NAME_RE = re.compile(rf"\..*\.[0-9a-f]{{{TEMP_TAIL_CHARS}}}\.part(\.[^./]*)?", re.DOTALL)


def is_temp_name(name: str) -> bool:
    """Whether ``name`` is one :func:`temp_path_for` makes (hidden, with ``.XXXXXXXX.part``)."""
    return _TEMP_NAME_RE.fullmatch(name) is not None


def create_locked(tmp: Path) -> int:
    """Make ``tmp`` (it must not exist) and lock it for this process; the descriptor holds the
    lock until it is closed (the writer opens the path again, the same file)."""
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # a sweeper looking at it may hold it for a moment
        except OSError:  # a file system without locks (some network shares): written all the same
            pass
    return fd


@contextlib.contextmanager
def atomic_path(target: Path, *, locked: bool = False) -> Iterator[Path]:
    """Yield a temp path to write; on success it replaces ``target`` atomically.

    ``locked``: the temp file is made, empty and locked by this process, before the path is
    yielded, so that a later writer can tell it from one whose process was killed
    (:func:`sweep_temp_files`); write it in place (opened for writing, truncated), never
    replace it with another file. Without it, the writer makes the file (an encoder may
    refuse one that exists), and it is cleaned by age where that matters (a project's
    media, when the project opens).
    On any error the temp file is removed and ``target`` is left as it was.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(target)
    lock = create_locked(tmp) if locked else None
    try:
        yield tmp
        if not tmp.exists():
            raise FileNotFoundError(f"nothing was written to {tmp}")
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, target)
        fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    finally:
        if lock is not None:
            os.close(lock)


HEAD_BYTES = 512
"""How much of a temporary file :func:`sweep_temp_files` shows its ``written_by`` check."""


def temp_file_abandoned(path: Path, written_by: Callable[[bytes], bool] | None = None,
                        now: float | None = None) -> bool:
    """Whether the temporary file ``path`` was left by a writer that is gone: a plain file that
    no process locks and whose first bytes ``written_by`` recognises (when given: what the
    studio writes there, never a user's file that merely has such a name). One that is empty
    is abandoned only when it is old (its writer may not have locked it yet). False when it
    can't be told (it went, can't be opened, or locks don't work here)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return False
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # its writer is alive (or no locks here: nothing tells a live writer from a dead one)
                return False
        if info.st_size == 0:
            return (time.time() if now is None else now) - info.st_mtime >= UNLOCKED_EMPTY_MIN_AGE_S
        return written_by is None or written_by(os.pread(fd, HEAD_BYTES, 0))
    finally:
        os.close(fd)


def sweep_temp_files(folder: Path, match: Callable[[str], bool],
                     written_by: Callable[[bytes], bool] | None = None) -> list[Path]:
    """Remove the temporary files (:func:`is_temp_name`) in ``folder`` whose name ``match``-es
    and whose writer is gone (:func:`temp_file_abandoned`, with ``written_by``): a writer
    killed (``kill -9``, a crash, a power cut) left them, and nothing else ever would. Only
    names :func:`temp_path_for` makes are considered, whatever ``match`` says, and only plain
    files, never through a link. Returns what was removed; never raises (cleaning is a
    courtesy, not a condition)."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not is_temp_name(entry.name) or not match(entry.name):
            continue
        path = Path(entry.path)
        if not temp_file_abandoned(path, written_by):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    if removed:
        fsync_dir(folder)
    return removed


def write_bytes_atomic(target: Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        tmp.write_bytes(data)
