"""Paths stored in a project are relative and must stay inside the project folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from studio.core.errors import StudioError

CLIP_NAME = "clip.mp4"
POSTER_NAME = "poster.png"
REPRESENTATION_NAME = "representation.safetensors"
"""The files of a take's folder (``media/takes/ID/``)."""


class UnsafePathError(StudioError):
    """A path from a project file that would point outside the project."""


def check_relative(rel: str) -> PurePosixPath:
    """Validate a stored relative path (posix form) without touching the disk."""
    if not rel or "\x00" in rel:
        raise UnsafePathError(f"Refused an empty or invalid path {rel!r}.")
    win = PureWindowsPath(rel)
    posix = PurePosixPath(rel.replace("\\", "/"))
    if posix.is_absolute() or win.drive or win.root:
        raise UnsafePathError(f"Refused the absolute path {rel!r}: project paths must be relative.")
    if any(part == ".." for part in posix.parts):
        raise UnsafePathError(f"Refused the path {rel!r}: it leads outside the project.")
    return posix


def check_name(name: object, what: str = "id") -> str:
    """Refuse ``name`` unless it is one plain file or folder name, safe to use as a path
    component: not empty, not ``.`` or ``..``, no separator, no NUL or control character.

    Ids read from a project file (a take id in the ``jobs`` table) become folder names;
    ``media/takes/.`` is the whole takes folder, so a crafted id must never get that far.
    """
    if (not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\\" in name
            or any(ord(c) < 32 or c == "\x7f" for c in name) or PureWindowsPath(name).drive):
        raise UnsafePathError(f"Refused the {what} {name!r}: it is not a plain name (it can't name a folder "
                              "of its own).")
    return name


def resolve_inside(root: Path, rel: str) -> Path:
    """``root / rel`` after checking it stays inside ``root`` (symlinks resolved too)."""
    posix = check_relative(rel)
    base = root.resolve()
    target = (base / Path(*posix.parts)).resolve()
    if target != base and base not in target.parents:
        raise UnsafePathError(f"Refused the path {rel!r}: it resolves outside the project ({target}).")
    return target


def to_relative(root: Path, path: Path) -> str:
    """The stored form of ``path``, which must lie inside ``root``."""
    base = root.resolve()
    target = path.resolve()
    try:
        return target.relative_to(base).as_posix()
    except ValueError:
        raise UnsafePathError(f"{path} is not inside the project {root}.") from None


def is_own_folder(path: Path) -> bool:
    """Whether ``path`` is a folder itself, not a link to one (nor anything else).

    Sweeps that remove files (abandoned partial writes, unused imports) walk only such
    folders: through a link they would remove files outside the project."""
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def not_a_folder(path: Path) -> str:
    """What stands at ``path`` where a folder belongs ("a file", "a link that leads nowhere"...),
    or "" when it is a folder, a link to one, or nothing (a missing folder is made when
    needed). For messages that name what to move away: the operating system says only
    "Not a directory", naming neither the file nor the folder it blocks."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return ""
    if stat.S_ISDIR(mode) or (stat.S_ISLNK(mode) and path.is_dir()):
        return ""
    if stat.S_ISLNK(mode):
        return "a link to a file" if path.exists() else "a link that leads nowhere"
    return "a file" if stat.S_ISREG(mode) else "a special file (a pipe, socket or device)"


def file_there(path: Path) -> bool | None:
    """Whether ``path`` is a file; None when a folder above it may not be entered (``chmod 000``
    on a take's folder), where ``Path.is_file`` raises PermissionError instead of answering."""
    try:
        return path.is_file()
    except PermissionError:
        return None
