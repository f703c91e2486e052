"""One writer per project: an advisory lock on ``NAME.kamishibai/writer.lock``.

Every process that changes a project (the studio window, ``play``, ``reroll``,
``run-queue``, ``import-demo``...) holds this lock from before it reads the story until it
closes the project. So the tree a writer holds in memory is always the tree on disk, and
two processes can never interleave whole-row writes from stale copies. Reading commands
open the database read-only and never take the lock.

The lock is ``flock`` (``msvcrt.locking`` on Windows): the kernel drops it when its holder
exits, SIGKILL included, so a crash never leaves a project locked. The file holds who
holds the lock (command, pid, host, since when), only to say so in messages.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import json
import os
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from studio.core.text import one_line
from studio.storage.errors import Problem, ProjectFileError, classify_errno, describe_os_error

LOCK_NAME = "writer.lock"
_POLL_S = 0.1
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
"""Opening a FIFO planted as the lock file must not hang."""

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class ProjectLockedError(ProjectFileError):
    """Another process (or this one) already holds the project for writing."""

    def __init__(self, message: str, hint: str = "", holder: LockHolder | None = None) -> None:
        super().__init__(message, hint)
        self.holder = holder


MAX_HOLDER_TEXT_CHARS = 80
"""Most of a holder's command or host name shown in a message: the lock file is anyone's to
write, and a message is no place for kilobytes of it."""
_UNSHOWN_HOLDER = "another process (its lock file does not say which)"


def clean_holder_text(text: str, limit: int = MAX_HOLDER_TEXT_CHARS) -> str:
    """``text`` read from a lock file, fit for a message: control characters (terminal
    escapes, BEL, line breaks), directional overrides and isolates and Unicode line breaks
    become spaces, runs of white space one space, a lone surrogate U+FFFD (as project names
    are cleaned), and the length is cut to ``limit`` characters, ending with "…"."""
    cleaned = one_line(text)
    return cleaned if len(cleaned) <= limit else cleaned[:limit - 1].rstrip() + "…"


def _shown_time(since: float) -> str:
    """``since`` (seconds since the epoch) as local time, or "?" for a value no clock shows
    (0, negative, not finite, past the year 9999: read from a file anyone could write)."""
    if not 0 < since < 253_402_300_800:
        return "?"
    try:
        return datetime.fromtimestamp(since).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "?"


@dataclass(frozen=True)
class LockHolder:
    """Who holds a project for writing, as its lock file says. Built by :meth:`parse` from
    text any program could have written, so every field is cleaned there: a message shows
    them as they are."""

    pid: int
    host: str
    command: str
    since: float

    def describe(self) -> str:
        where = "" if not self.host or self.host == clean_holder_text(socket.gethostname()) else f" on {self.host}"
        process = f"process {self.pid}" if self.pid > 0 else "process number unknown"
        return f"{self.command or 'a Kamishibai process'} ({process}{where}, since {_shown_time(self.since)})"

    def to_json(self) -> str:
        return json.dumps({"pid": self.pid, "host": self.host, "command": self.command, "since": self.since})

    @staticmethod
    def parse(text: str) -> LockHolder | None:
        """The holder ``text`` (a lock file's content) names, its fields cleaned for messages;
        None for anything that is not what the studio writes (empty, binary, other JSON)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict):
            return None
        pid, host, command, since = (data.get(key) for key in ("pid", "host", "command", "since"))
        if not isinstance(pid, int) or isinstance(pid, bool) or not isinstance(host, str) \
                or not isinstance(command, str) or not isinstance(since, int | float) or isinstance(since, bool):
            return None
        shown_pid = pid if 0 < pid < 2**31 else 0
        shown_since = float(since) if 0 < since < 2**40 else 0.0  # no NaN, no int too large for a float
        return LockHolder(shown_pid, clean_holder_text(host), clean_holder_text(command), shown_since)


_process_label = ""
_held: dict[Path, WriterLock] = {}
_held_guard = threading.Lock()


def set_process_label(label: str) -> None:
    """How other processes name this one in "held by ..." messages (e.g. ``kamishibai play``)."""
    global _process_label
    _process_label = label


def process_label() -> str:
    """This process's name as :func:`set_process_label` set it ("" when it was not set)."""
    return _process_label


def _label() -> str:
    if _process_label:
        return _process_label
    return " ".join(Path(arg).name if i == 0 else arg for i, arg in enumerate(sys.argv[:2])) or "python"


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    import msvcrt  # pragma: no cover - Windows

    try:  # pragma: no cover
        os.lseek(fd, 1 << 20, os.SEEK_SET)  # a byte past the holder text
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]  # msvcrt exists on Windows only
    except OSError:  # pragma: no cover
        return False
    return True  # pragma: no cover


def _read_holder(fd: int) -> LockHolder | None:
    try:
        return LockHolder.parse(os.pread(fd, 4096, 0).decode("utf-8", "replace"))
    except OSError:
        return None


def describe_holder(holder: LockHolder | None) -> str:
    """Who holds a project, for a message: the holder, or words that say the lock file did
    not tell (empty, damaged, or written by another program)."""
    return holder.describe() if holder is not None else _UNSHOWN_HOLDER


def _locked_message(folder: Path, holder: LockHolder | None, waited: float) -> ProjectLockedError:
    who = describe_holder(holder)
    waited_text = f" (waited {waited:.0f} s)" if waited >= 1 else ""
    return ProjectLockedError(
        f"{folder} is being changed by {who}{waited_text}.",
        hint="Wait for it to finish (or close the studio window that has it open), then try again.",
        holder=holder,
    )


def _not_a_lock_file(folder: Path, path: Path, what: str) -> ProjectFileError:
    cure = (f"remove the folder {path} (move out anything you keep in it first)" if what == "a folder"
            else f"remove it ({path})")
    return ProjectFileError(
        f"Can't open {folder} for writing: its lock file {path.name} is {what}, not a plain file.",
        hint=f"{path.name} is only a lock (it holds no work): {cure}, then try again. Nothing was changed.")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a plain file"


def _open_lock_file(folder: Path, path: Path) -> int:
    """Open (or create) the lock file without following a symbolic link: the lock file is
    written to (truncated, then who holds it), so a link planted in a project (a bundle, a
    shared folder) must never lead that write to a file elsewhere."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK, 0o644)
    except OSError as error:
        if path.is_symlink():  # ELOOP (Linux, macOS) or EMLINK (FreeBSD) from O_NOFOLLOW
            raise _not_a_lock_file(folder, path, "a symbolic link") from None
        if error.errno == errno.EISDIR or path.is_dir():  # a folder can't be opened for writing
            raise _not_a_lock_file(folder, path, "a folder") from None
        if classify_errno(error.errno) is Problem.OTHER:  # name the file, as the errno alone does not
            raise ProjectFileError(f"Can't open {folder} for writing: its lock file {path} can't be opened "
                                   f"({error.strerror or error}).",
                                   hint="Check that file (it is only a lock, and holds no work), then try again. "
                                   "Nothing was changed.") from None
        raise describe_os_error(error, folder, "open the project for writing") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as error:
        os.close(fd)
        raise describe_os_error(error, folder, "open the project for writing") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_a_lock_file(folder, path, _kind(mode))
    return fd


class WriterLock:
    """The held lock of one project folder; :meth:`release` (or process exit) frees it."""

    def __init__(self, folder: Path, fd: int, created: bool = False) -> None:
        self.folder = folder
        self._fd: int | None = fd
        self.created = created  # the lock file was made by this acquire (the folder had none)

    @classmethod
    def acquire(cls, folder: Path, wait: float = 0.0,
                on_wait: Callable[[LockHolder | None], None] | None = None) -> WriterLock:
        """Take the lock of ``folder``, waiting up to ``wait`` seconds for another holder.

        ``on_wait(holder)`` is called once, when the lock is found taken. Raises
        :class:`ProjectLockedError` (naming the holder), or the read-only / full-disk errors
        when the lock file can't be created.
        """
        key = folder.resolve()
        with _held_guard:
            if key in _held:
                raise ProjectLockedError(f"{folder} is already open for writing in this process.",
                                         hint="Close it first (or use the window that has it open).")
        path = folder / LOCK_NAME
        created = not path.exists() and not path.is_symlink()
        fd = _open_lock_file(folder, path)
        try:
            start = time.monotonic()
            told = False
            while not _try_lock(fd):
                holder = _read_holder(fd)
                waited = time.monotonic() - start
                if waited >= wait:
                    raise _locked_message(folder, holder, waited)
                if not told and on_wait is not None:
                    on_wait(holder)
                    told = True
                time.sleep(min(_POLL_S, max(0.0, wait - waited)))
            with contextlib.suppress(OSError):  # who holds it is only for messages
                data = LockHolder(os.getpid(), socket.gethostname(), _label(), time.time()).to_json().encode()
                os.ftruncate(fd, 0)
                os.pwrite(fd, data, 0)
        except BaseException:
            os.close(fd)
            raise
        lock = cls(folder, fd, created)
        with _held_guard:
            _held[key] = lock
        return lock

    @property
    def held(self) -> bool:
        return self._fd is not None

    def moved_to(self, folder: Path) -> None:
        """The project folder was renamed (a new project moved into place): follow it."""
        with _held_guard:
            for key, lock in list(_held.items()):
                if lock is self:
                    del _held[key]
            _held[folder.resolve()] = self
        self.folder = folder

    def release(self, *, leave_no_trace: bool = False) -> None:
        """Free the lock. ``leave_no_trace``: also remove the lock file if this lock made it
        (a project refused as damaged keeps no new file)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if leave_no_trace and self.created:
            with contextlib.suppress(OSError):
                (self.folder / LOCK_NAME).unlink()  # still held: nobody else is using it
        with _held_guard:
            for key, lock in list(_held.items()):
                if lock is self:
                    del _held[key]
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing the last descriptor drops the flock


class _Probed(enum.Enum):
    """What a look at a project's lock file found."""

    FREE = "free"  # nobody holds it
    HELD = "held"  # a writer holds it
    UNTESTABLE = "untestable"  # no flock here, or the kernel would not say


def _probe_lock(folder: Path) -> tuple[_Probed, LockHolder | None]:
    """Whether ``folder``'s lock file is held now, and by whom (as the file says) where it is,
    told without taking it for good: a shared lock is tried, without waiting, and dropped.

    The file is opened read-only without following a link (a link planted in its place is
    never opened) and without waiting on a pipe. The ``OSError`` of that open is the caller's
    to judge; a missing file raises ``FileNotFoundError``."""
    fd = os.open(folder / LOCK_NAME, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    try:
        if fcntl is None:
            return _Probed.UNTESTABLE, None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _Probed.HELD, _read_holder(fd)
        except OSError:
            return _Probed.UNTESTABLE, None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return _Probed.FREE, None
    finally:
        os.close(fd)


def holder_of(folder: Path) -> LockHolder | None:
    """Who holds ``folder`` for writing now (None if nobody, or if it can't be told)."""
    try:
        probed, holder = _probe_lock(folder)
    except OSError:
        return None
    return holder if probed is _Probed.HELD else None


def writer_is_live(folder: Path) -> bool:
    """Whether a writer (of this process or another) may hold ``folder`` now: its lock file
    is locked, or can't be tested (then a writer is assumed, and its files left alone)."""
    try:
        probed, _holder = _probe_lock(folder)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return probed is not _Probed.FREE


def _forget_in_child() -> None:
    """A forked child must not keep the parent's lock alive after the parent exits.

    Only the forking thread runs in the child, so the guard (which another thread may
    have held at the fork) is replaced rather than taken."""
    global _held_guard
    _held_guard = threading.Lock()
    locks = list(_held.values())
    _held.clear()
    for lock in locks:
        fd, lock._fd = lock._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)  # the parent's descriptor still holds the lock


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
