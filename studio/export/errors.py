"""Export errors: every failure a user can act on becomes an :class:`ExportError`."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from studio.core.errors import StudioError

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


def as_sentence(text: str) -> str:
    """``text`` ending in a full stop, unless it ends in one already (or in ``!``, ``?`` or an
    ellipsis): for a message quoted at the end of another ("... can't be read: {message}")."""
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", "\u2026")) else f"{text}."


def disk_full_error(target: Path) -> ExportError:
    return ExportError(
        f"The disk is full (or a file size limit was reached) while writing {target}.",
        hint="Nothing was written. Free some space or choose another folder, then export again.",
    )


def name_too_long_error(target: Path) -> ExportError:
    return ExportError(f"Can't write {target}: its name is too long for the file system (the usual limit is "
                       "255 bytes a name; a Japanese or Chinese character takes 3).",
                       hint="Choose a shorter file name, then export again.")


def os_error(error: OSError, target: Path) -> ExportError:
    """Turn an OSError raised while writing ``target`` into a message a user can act on."""
    if error.errno in DISK_FULL_ERRNOS:
        return disk_full_error(target)
    if error.errno == errno.ENAMETOOLONG:
        # the name the system refused (a sheet's page, "NAME-01.png"), where it says which
        return name_too_long_error(Path(os.fsdecode(error.filename)) if error.filename else target)
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ExportError(f"Can't write to {target.parent}: {error.strerror or 'permission denied'}.",
                           hint="Choose a folder you can write to.")
    reason = error.strerror or str(error)
    where = f" ({error.filename})" if error.filename else ""
    return ExportError(f"Can't write {target}: {reason}{where}.")
