"""Writing export files without ever leaving a partial one behind.

Everything is written into a hidden work folder inside the destination folder (same file
system, so the final rename is atomic); one left by a killed export is removed by the next
export into the same folder. :meth:`OutputFiles.commit` moves the finished
files to their names; leaving the ``with`` block removes the work folder whatever
happened (error, cancel, KeyboardInterrupt).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import struct
import sys
from collections.abc import Sequence
from pathlib import Path

from studio.export.errors import ExportError, os_error
from studio.storage.atomic import fsync_dir
from studio.storage.project import enclosing_project
from studio.storage.staging import StagingDir, sweep


def check_destination(out: Path) -> None:
    """Refuse ``out`` before anything is made when the export could not write it there."""
    try:
        _check_destination(out)
    except OSError as error:  # a name too long: looking at it fails already
        if error.errno != errno.ENAMETOOLONG:
            raise
        raise os_error(error, out) from None


def _check_destination(out: Path) -> None:
    folder = out.parent
    blocker = _file_in_the_way(folder)
    if blocker is not None:
        # "does not exist; create it" can't be followed where a file holds the folder's name
        what = "a file, not a folder" if blocker.is_file() else "not a folder"
        raise ExportError(f"Can't write {out}: {blocker} is {what}.",
                          hint="Choose a file in a folder that exists (or move that file out of the way).")
    if not folder.exists():
        raise ExportError(f"The folder {folder} does not exist.", hint="Create it or choose another folder.")
    if not folder.is_dir():
        raise ExportError(f"Can't write {out}: {folder} is not a folder.",
                          hint="Choose a file in a folder that exists.")
    if out.is_dir():
        raise ExportError(f"Can't write {out}: a folder of that name exists.", hint="Choose another file name.")
    system = _system_folder(out)
    if system is not None:
        # /dev/stdout is a link to an open file: a rename would put a plain file in its place
        raise ExportError(f"Can't write {out}: it is in {system}, the system's devices and open files.",
                          hint="Export to a file in an ordinary folder (an export can't go to standard output).")
    kind = _special_kind(out)
    if kind:
        # an export replaces its file by a rename: with --force it would put a file where the
        # device or pipe was (as root, /dev/full or /dev/stdout's link became a plain file)
        raise ExportError(f"Can't write {out}: it is {kind}, not a file.",
                          hint="Choose a file name; an export writes whole files, never into a device or pipe.")
    if _locked(out):
        # found before anything is made: the rename that replaces it failed only at the end,
        # after the whole video was encoded, and the message blamed the folder
        raise locked_error(out)


LOCKED_HINT = ("Unlock the file (or move it away, or choose another name), then export again; "
               "it is as it was.")


def locked_error(path: Path) -> ExportError:
    return ExportError(f"Can't replace {path}: the file is locked (read-only or protected against changes).",
                       hint=LOCKED_HINT)


_LOCK_FLAGS = getattr(stat, "UF_IMMUTABLE", 0) | getattr(stat, "SF_IMMUTABLE", 0) | \
    getattr(stat, "UF_APPEND", 0) | getattr(stat, "SF_APPEND", 0)
"""macOS and BSD file flags (Finder's "Locked", ``chflags uchg``) under which a file can't be
replaced, even by its owner."""
_LINUX_LOCK_FLAGS = 0x10 | 0x20  # FS_IMMUTABLE_FL, FS_APPEND_FL (``chattr +i``, ``chattr +a``)
_FS_IOC_GETFLAGS = (2 << 30) | (struct.calcsize("l") << 16) | (ord("f") << 8) | 1  # _IOR('f', 1, long)


def _locked(path: Path) -> bool:
    """Whether the file at ``path`` (not a link's target: the export replaces the name) is
    locked so that no one may replace it: immutable or append-only (Linux, macOS, BSD), or
    read-only on Windows, where a read-only file can't be replaced. A read-only file elsewhere
    is not locked: its folder decides, and ``--force`` replaces it as ``mv -f`` would."""
    try:
        info = path.lstat()
    except (OSError, ValueError):
        return False
    if not stat.S_ISREG(info.st_mode):
        return False
    if getattr(info, "st_file_attributes", 0) & getattr(stat, "FILE_ATTRIBUTE_READONLY", 0):
        return True
    if getattr(info, "st_flags", 0) & _LOCK_FLAGS:
        return True
    return sys.platform.startswith("linux") and bool(_linux_flags(path) & _LINUX_LOCK_FLAGS)


def _linux_flags(path: Path) -> int:
    """The file's inode flags (what ``lsattr`` shows); 0 where they can't be read."""
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return 0
    try:
        answer = fcntl.ioctl(fd, _FS_IOC_GETFLAGS, bytes(struct.calcsize("l")))
        return int(struct.unpack_from("i", answer)[0])
    except OSError:  # a file system without such flags
        return 0
    finally:
        os.close(fd)


def check_outputs(out: Path, paths: Sequence[Path], project: Path | None = None) -> None:
    """Check every file an export to ``out`` writes (``paths``, see
    :func:`~studio.export.options.output_files`) as :func:`check_destination` checks ``out``,
    and, given the ``project`` folder, as :func:`check_outside_project` does. Done before
    anything is made: a side file (the SRT beside a video) was checked only when written,
    after the whole video had been encoded. A name the system refuses (too long) is
    reported as writing it would report it."""
    for path in paths:
        try:
            check_destination(path)
            if project is not None:
                check_outside_project(path, project)
        except OSError as error:
            raise os_error(error, out) from None


def _file_in_the_way(folder: Path) -> Path | None:
    """The nearest of ``folder`` and the folders above it that exists, when it is not a folder
    (``notes.txt`` for ``notes.txt/out``); None when that is a folder, or nothing can be told."""
    for place in (folder, *folder.parents):
        try:
            if os.path.lexists(place):
                return None if place.is_dir() else place
        except (OSError, ValueError):
            return None
    return None


DEVICE_FOLDER = Path("/dev")
OPEN_FILES_FOLDER = Path("/proc")
"""/dev itself (not /dev/shm, a place for files) and all of /proc: devices and open files
(/dev/stdout, /dev/fd/1, /proc/self/fd/1), never a place for an export."""


def _system_folder(out: Path) -> Path | None:
    """The system folder ``out`` lies in, or its link points into; None for an ordinary place."""
    places = [out.parent.resolve()]
    with contextlib.suppress(OSError, ValueError):
        if out.is_symlink():
            places.append(Path(os.path.abspath(out.parent / os.readlink(out))).parent)
    for place in places:
        if place == DEVICE_FOLDER:
            return DEVICE_FOLDER
        if place == OPEN_FILES_FOLDER or OPEN_FILES_FOLDER in place.parents:
            return OPEN_FILES_FOLDER
    return None


def _special_kind(path: Path) -> str:
    """What ``path`` (links followed) is when it exists and is no regular file: a device, a
    pipe, a socket; '' otherwise."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return ""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return ""


def check_outside_project(out: Path, project: Path) -> None:
    """Refuse a destination inside the project folder, or inside any other project
    folder (links followed): an export must never replace a database or a take's clip,
    nor add files a project doesn't know. Other files an export writes (an SRT, further
    sheet pages) go next to ``out``."""
    root = project.resolve()
    landing = out.parent.resolve() / out.name
    for candidate in (landing, landing.resolve()):
        if candidate == root or root in candidate.parents:
            raise ExportError(f"Can't write {out}: it is inside the project folder {project}.",
                              hint="Export to a folder outside the project (exports never write into it).")
    outer = enclosing_project(landing)
    if outer is not None:
        raise ExportError(f"Can't write {out}: it is inside the project folder {outer}.",
                          hint="Export to a folder outside every project (exports never write into one).")


class OutputFiles:
    """``with OutputFiles(out) as files: tmp = files.temp_for(final); ...; files.commit()``."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.work: Path | None = None
        self._staging: StagingDir | None = None
        self._pending: list[tuple[Path, Path]] = []
        self._superseded: list[Path] = []
        self._found: dict[Path, tuple[int, int] | None] = {}
        """What each final name held when the export began (see :meth:`_note_found`)."""

    def __enter__(self) -> OutputFiles:
        check_destination(self.out)
        self._note_found(self.out)
        # Work folders of exports that were killed (SIGKILL, a power cut) go first.
        sweep(self.out.parent, lambda name: name.startswith(".") and ".export-" in name)
        try:
            self._staging = StagingDir(self.out.parent, f".{self.out.stem[:40]}.export-")
        except OSError as error:
            raise os_error(error, self.out) from None
        self.work = self._staging.path
        return self

    def __exit__(self, *exc: object) -> None:
        if self._staging is not None:
            self._staging.remove()
            self._staging = None
            self.work = None

    def scratch(self, name: str) -> Path:
        """A file in the work folder that is not part of the output (a list, a log)."""
        assert self.work is not None, "use OutputFiles in a with block"
        return self.work / name

    def temp_for(self, final: Path) -> Path:
        """Where to write the file that becomes ``final`` (same name, so encoders see the suffix)."""
        assert self.work is not None, "use OutputFiles in a with block"
        if final.parent.resolve() != self.out.parent.resolve():
            raise ValueError(f"{final} is not in the export folder {self.out.parent}")
        check_destination(final)
        self._note_found(final)
        tmp = self.work / f"{len(self._pending):03d}" / final.name
        tmp.parent.mkdir()
        self._pending.append((tmp, final))
        return tmp

    def temp_folder_for(self, final: Path) -> Path:
        """Where to write the folder that becomes ``final`` (an OTIO timeline's media): made
        empty here, and put in place by :meth:`commit` as a whole, replacing a folder of that
        name (an earlier export's) only once the new one is complete."""
        assert self.work is not None, "use OutputFiles in a with block"
        if final.parent.resolve() != self.out.parent.resolve():
            raise ValueError(f"{final} is not in the export folder {self.out.parent}")
        self._note_found(final)
        tmp = self.work / f"{len(self._pending):03d}" / final.name
        tmp.mkdir(parents=True)
        self._pending.append((tmp, final))
        return tmp

    def supersede(self, paths: list[Path]) -> None:
        """Files of an earlier export that :meth:`commit` removes once the new ones are in place
        (a PNG sheet's pages past the new last page); files it writes are left to it."""
        self._superseded += paths

    def commit(self) -> tuple[Path, ...]:
        """Move every finished file to its final name, all or none: when one can't be moved
        (a folder of its name appeared meanwhile, a signal, a full disk), the files already
        moved are taken back out and each file they replaced is put back as it was.

        Only removing the new files lost the user's earlier export: its first page (or its
        video, beside an SRT that failed) had already been replaced."""
        for tmp, final in self._pending:
            if tmp.is_dir():
                continue  # a media folder: its files were written by ffmpeg and copies, synced below
            if not tmp.is_file():
                raise ExportError(f"Nothing was written for {final}.")
            try:
                with open(tmp, "rb+") as handle:
                    os.fsync(handle.fileno())
            except OSError as error:
                raise os_error(error, final) from None
        moved: list[tuple[Path, Path | None]] = []  # each final moved in, and where its earlier file waits
        try:
            for index, (tmp, final) in enumerate(self._pending):
                self._check_unchanged(final)
                kept = self._keep_earlier(final, index)
                try:
                    self._move_in(tmp, final)
                except BaseException:
                    if kept is not None:
                        _restore(kept, final)
                    raise
                moved.append((final, kept))
        except OSError as error:
            self._roll_back(moved)
            raise _commit_error(error, self._pending[len(moved)][1]) from None
        except BaseException:
            self._roll_back(moved)
            raise
        finals = [final for _, final in self._pending]
        finals.sort(key=lambda final: final != self.out)  # the main file first, whatever was moved in first
        for path in self._superseded:
            if path not in finals:
                with contextlib.suppress(OSError):
                    path.unlink()
        fsync_dir(self.out.parent)
        return tuple(finals)

    def _note_found(self, final: Path) -> None:
        """Remember which file ``final`` names as the export begins (None: none). The caller
        checked then that the user lets it be replaced (``--force``, a confirmation), and that
        is all it may replace: a file that appears while the export runs (a second export to
        the same name started a moment later) is never replaced (:meth:`commit`)."""
        if final not in self._found:
            self._found[final] = _identity(final)

    def _check_unchanged(self, final: Path) -> None:
        """Refuse to replace a file that was not at ``final`` when the export began."""
        now = _identity(final)
        if now is not None and now != self._found.get(final) and not os.path.isdir(final):
            raise appeared_error(final)

    def _move_in(self, tmp: Path, final: Path) -> None:
        """Put ``tmp`` at ``final``. Where nothing was there as the export began, a new name is
        made (a hard link), which fails if a file took the name since the check, then the work
        copy's name removed; a rename, which replaces what it finds, where the file system has
        no hard links, and where a file was there to replace."""
        if tmp.is_dir():  # a media folder: the earlier one was moved aside (_keep_earlier)
            os.rename(tmp, final)
            return
        if self._found.get(final) is not None:
            os.replace(tmp, final)
            return
        try:
            os.link(tmp, final, follow_symlinks=False)
        except FileExistsError:
            if os.path.isdir(final):
                raise  # a folder appeared: told as such by the caller
            raise appeared_error(final) from None
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
            os.replace(tmp, final)
            return
        with contextlib.suppress(OSError):  # the work folder goes with it anyway
            tmp.unlink()

    def _keep_earlier(self, final: Path, index: int) -> Path | None:
        """Keep the file now at ``final`` (if any) in the work folder, so that a failed commit
        can put it back: a second name for it (a hard link; ``final`` stays in place) where
        the file system has them, else ``final`` itself moved there (put back at once if the
        new file can't take its place). None when nothing is at ``final``."""
        assert self.work is not None, "use OutputFiles in a with block"
        kept = self.work / f"earlier-{index:03d}"
        if self._pending[index][0].is_dir() and os.path.isdir(final) and not os.path.islink(final):
            os.rename(final, kept)  # an earlier media folder: moved aside whole, removed with the work folder
            return kept
        if not os.path.lexists(final) or os.path.isdir(final):
            return None
        try:
            os.link(final, kept, follow_symlinks=False)
        except OSError:
            os.replace(final, kept)  # no hard links here (FAT, some network shares)
        return kept

    @staticmethod
    def _roll_back(moved: list[tuple[Path, Path | None]]) -> None:
        """Undo the moves of a commit that failed, the last first."""
        for final, kept in reversed(moved):
            if os.path.isdir(final) and not os.path.islink(final):  # a media folder moved in
                shutil.rmtree(final, ignore_errors=True)
            if kept is not None:
                _restore(kept, final)
            else:
                with contextlib.suppress(OSError):
                    final.unlink()


_NO_HARD_LINKS = frozenset({errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS, errno.EXDEV})
"""What ``os.link`` fails with on a file system without hard links (FAT, some network shares)."""


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of what ``path`` names (a link itself, not followed); None for nothing."""
    try:
        found = os.lstat(path)
    except (OSError, ValueError):
        return None
    return found.st_dev, found.st_ino


APPEARED_HINT = "Choose another name, or export again once the other export has finished, to replace it."


class FileAppearedError(ExportError):
    """A file took the export's name while it ran (another export to the same name, started a
    moment later, finished first), and was left as it is. Its hint names no command-line
    option: the command line says whether ``--force`` is still needed, as only it knows
    whether it was given (:func:`studio.cli.export_cmds.cmd_export`)."""


def appeared_error(final: Path) -> FileAppearedError:
    """The error of a file that took ``final``'s name while the export ran."""
    return FileAppearedError(f"Can't write {final}: a file of that name appeared while the export ran (another "
                             "export or program wrote it meanwhile), and it was left as it is.", hint=APPEARED_HINT)


def _restore(kept: Path, final: Path) -> None:
    """Put the earlier file kept at ``kept`` back at ``final`` (best effort: the work folder,
    and ``kept`` with it, is removed next)."""
    with contextlib.suppress(OSError):
        os.replace(kept, final)


def _commit_error(error: OSError, final: Path) -> ExportError:
    """What stopped ``final`` from taking its place, naming ``final`` (``error`` names the
    work folder's copy, which the user never sees)."""
    if error.errno in (errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR):
        return ExportError(f"Can't write {final}: a folder of that name appeared while the export ran.",
                           hint="Move or rename that folder (or choose another name), then export again. "
                           "Files that were there before are as they were.")
    if error.errno in (errno.EACCES, errno.EPERM) and os.path.lexists(final) and os.access(final.parent, os.W_OK):
        # the folder takes new files (the work folder is in it): the file there refused
        return ExportError(f"Can't replace {final}: {error.strerror or 'permission denied'}.", hint=LOCKED_HINT)
    return os_error(OSError(error.errno, error.strerror), final)
