"""Export errors: every failure a user can act on becomes an :class:`ExportError`."""

from __future__ import annotations

import errno
from pathlib import Path

from studio.core.errors import StudioError

DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, errno.EDQUOT})


class ExportError(StudioError):
    """An export that can't be made: a bad branch, bad options, or a destination we can't write."""


def disk_full_error(target: Path) -> ExportError:
    return ExportError(
        f"The disk is full (or a file size limit was reached) while writing {target}.",
        hint="Nothing was written. Free some space or choose another folder, then export again.",
    )


def os_error(error: OSError, target: Path) -> ExportError:
    """Turn an OSError raised while writing ``target`` into a message a user can act on."""
    if error.errno in DISK_FULL_ERRNOS:
        return disk_full_error(target)
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ExportError(f"Can't write to {target.parent}: {error.strerror or 'permission denied'}.",
                           hint="Choose a folder you can write to.")
    reason = error.strerror or str(error)
    where = f" ({error.filename})" if error.filename else ""
    return ExportError(f"Can't write {target}: {reason}{where}.")
