"""Export errors: every failure a user can act on becomes an :class:`ExportError`."""

from __future__ import annotations

import errno
import os
import shlex
from pathlib import Path

from studio.core.errors import StudioError
from studio.storage.errors import file_size_limited
from studio.storage.paths import UnsafePathError, open_resolved_inside

DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})

REMAKE_CLIP_HINT = "Re-roll the turn to make its clip again."
"""The hint of every export stopped by a turn's missing or unreadable clip, whatever format."""


class ExportError(StudioError):
    """An export that can't be made: a bad branch, bad options, or a destination we can't write.

    ``remake`` names the turns (node ids, in branch order) whose clips are missing or can't be
    read, so that a front end can say how to make each again (the command line names the exact
    ``kamishibai reroll`` commands)."""

    def __init__(self, message: str, hint: str = "", remake: tuple[str, ...] = ()) -> None:
        super().__init__(message, hint)
        self.remake = remake


class ClipPermissionError(ExportError):
    """A clip that is there but that this user may not read: the file (or a folder above it)
    lacks read permission. Re-rolling would make again a clip that is there; a change of
    permissions is what it needs, which the hint names."""


def clip_permission_error(path: Path, label: str, media_root: Path | None = None,
                          rel: str = "") -> ClipPermissionError | None:
    """The error of ``label``'s clip at ``path`` when this user may not read it (None when it
    can be opened, or can't for another reason: the probe says that one). Asked before the
    clip is probed: ffmpeg said only "Error opening input files: Permission denied", under a
    hint to re-roll the turn.

    ``media_root`` and ``rel``: the project folder and the clip's stored path in it, which is
    then opened as every read of a project's media is, one folder at a time without following
    a link (:func:`~studio.storage.paths.open_resolved_inside`), never by ``path`` (a link
    swapped in at ``path`` since the branch was read would be followed). A path through a link
    leading outside the project is not this question: the read that follows refuses it."""
    try:
        os.close(_open_clip(path, media_root, rel))
        return None
    except PermissionError:
        pass
    except (OSError, UnsafePathError):
        return None
    return ClipPermissionError(f"The clip of {label} can't be read: you have no permission to read {path}.",
                               hint=permission_hint([path]))


def _open_clip(path: Path, media_root: Path | None, rel: str) -> int:
    """A read-only descriptor of the clip (see :func:`clip_permission_error`)."""
    if media_root is not None and rel:
        return open_resolved_inside(media_root, rel)
    return os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))


def permission_hint(paths: list[Path]) -> str:
    """How to let this user read ``paths`` (clips it may not read): the command for what
    blocks them, each file or the folder above it that may not be entered, and whom to ask
    where that belongs to another user."""
    blocked = [_what_blocks(path) for path in paths]
    folders = sorted({str(where) for where, is_folder in blocked if is_folder})
    files = list(dict.fromkeys(str(where) for where, is_folder in blocked if not is_folder))
    commands = ([f"`chmod u+rx {shlex.quote(folder)}`" for folder in folders]
                + ([f"`chmod u+r {' '.join(shlex.quote(file) for file in files)}`"] if files else []))
    owners = sorted({owner for owner in (_owner(Path(where)) for where in (*folders, *files)) if owner})
    which = "it" if len(paths) == 1 else "them"
    ask = (f" {'It belongs' if len(commands) == 1 else 'They belong'} to {' and '.join(owners)}: if chmod is "
           "refused, ask them or an administrator to run it." if owners else "")
    return (f"Nothing needs re-rolling: the file is there. Let yourself read {which}, then export again: "
            f"{' and '.join(commands)}.{ask}")


def _what_blocks(path: Path) -> tuple[Path, bool]:
    """The first folder above ``path`` that this user may not enter (and True), else ``path``
    itself (and False)."""
    for folder in reversed(path.parents):  # from the root down
        inside = folder / path.relative_to(folder).parts[0]
        try:
            os.stat(inside)
        except PermissionError:
            return folder, True
        except OSError:
            break
    return path, False


def _owner(path: Path) -> str | None:
    """The name of ``path``'s owner where that is another user than this one (None for ours)."""
    try:
        uid = os.stat(path).st_uid
    except OSError:
        return None
    if uid == os.geteuid():
        return None
    try:
        import pwd

        return f"the user {pwd.getpwuid(uid).pw_name}"
    except (ImportError, KeyError):
        return f"the user with id {uid}"


def as_sentence(text: str) -> str:
    """``text`` ending in a full stop, unless it ends in one already (or in ``!``, ``?`` or an
    ellipsis): for a message quoted at the end of another ("... can't be read: {message}")."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "\u2026")) else f"{text}."


class ExportDiskFullError(ExportError):
    """The disk had no room for the export (full, a quota, a file-size limit): work that
    began and failed, not a refused request (the command line exits with status 1)."""


def disk_full_error(target: Path, number: int = errno.ENOSPC) -> ExportError:
    """The export's disk had no room for ``target``; ``number`` (the errno) says which kind:
    freeing space or choosing another folder does nothing for a file-size limit
    (``ulimit -f``, EFBIG), which has to be raised, and a quota is the user's own."""
    if number == errno.EFBIG and file_size_limited():
        return ExportDiskFullError(
            f"A file-size limit (ulimit -f) was reached while writing {target}.",
            hint="Nothing was written. Raise the file-size limit (`ulimit -f unlimited` in the shell, or the limit of "
            "the service that starts the studio), then export again.")
    if number == errno.EFBIG:  # no limit of this process: the file system's own largest file
        return ExportDiskFullError(
            f"{target} would be larger than the file system of its folder allows.",
            hint="Nothing was written. Choose a folder on another disk (a FAT32 drive takes files up to 4 GiB), "
            "then export again.")
    if number == errno.EDQUOT:
        return ExportDiskFullError(
            f"Your disk quota was used up while writing {target}.",
            hint="Nothing was written. Free some of your space or choose a folder outside your quota, then export "
            "again.")
    return ExportDiskFullError(
        f"The disk is full: {target} could not be written.",
        hint="Nothing was written. Free some space or choose another folder, then export again.",
    )


def name_too_long_error(target: Path) -> ExportError:
    return ExportError(f"Can't write {target}: its name is too long for the file system (the usual limit is "
                       "255 bytes a name; a Japanese or Chinese character takes 3).",
                       hint="Choose a shorter file name, then export again.")


def os_error(error: OSError, target: Path) -> ExportError:
    """Turn an OSError raised while writing ``target`` into a message a user can act on."""
    if error.errno in DISK_FULL_ERRNOS:
        return disk_full_error(target, error.errno)
    if error.errno == errno.ENAMETOOLONG:
        # the name the system refused (a sheet's page, "NAME-01.png"), where it says which
        return name_too_long_error(Path(os.fsdecode(error.filename)) if error.filename else target)
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ExportError(f"Can't write to {target.parent}: {error.strerror or 'permission denied'}.",
                           hint="Choose a folder you can write to.")
    reason = error.strerror or str(error)
    where = f" ({error.filename})" if error.filename else ""
    return ExportError(f"Can't write {target}: {reason}{where}.")
