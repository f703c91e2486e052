"""Paths stored in a project are relative and must stay inside the project folder."""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from studio.core.errors import StudioError

CLIP_NAME = "clip.mp4"
POSTER_NAME = "poster.png"
REPRESENTATION_NAME = "representation.safetensors"
"""The files of a take's folder (``media/takes/ID/``). ``CLIP_NAME`` is the clip's name in
projects made before clips were named after their take (:func:`clip_name`): their takes keep
it, as each take's row names its own files."""

CLIP_PREFIX = "take-"
CLIP_SUFFIX = ".mp4"
_CLIP_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A take id that goes into a clip's file name as it is (ids made by the studio: 10 hex digits)."""


def clip_name(take_id: str) -> str:
    """The file name of a new take's clip: ``take-<id>.mp4``.

    Unique to the take (its folder alone was, before), so a video editor's media bin, or an
    OpenTimelineIO package (which refuses two media files of one name), tells the clips of a
    timeline apart; the ``take-`` prefix says what the file is among an editor's other media,
    and the id is the one ``kamishibai`` prints and the timeline's metadata carry. An id that
    is not plain ASCII letters, digits, ``-`` and ``_`` (none the studio makes) keeps
    :data:`CLIP_NAME`, so the name is always a safe one on every system."""
    if _CLIP_ID_RE.fullmatch(take_id):
        return f"{CLIP_PREFIX}{take_id}{CLIP_SUFFIX}"
    return CLIP_NAME


def clip_names(take_id: str) -> frozenset[str]:
    """Every name a clip of ``take_id`` may have on disk: :func:`clip_name` and, for takes
    of older projects, :data:`CLIP_NAME`."""
    return frozenset({CLIP_NAME, clip_name(take_id)})


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


def components(base: Path, rel: str) -> tuple[str, ...]:
    """The absolute path of each folder and file along ``rel`` under ``base`` (its top first):
    what :func:`first_link` looks at, computed once per stored path."""
    here = os.fspath(base)
    along: list[str] = []
    for part in check_relative(rel).parts:
        here = os.path.join(here, part)
        along.append(here)
    return tuple(along)


def first_link(along: tuple[str, ...]) -> str | None:
    """The first of ``along`` (see :func:`components`) that is a symbolic link, or None when
    none is: one ``lstat`` each, which never follows a link. A part that is not there ends the
    walk (nothing below it exists, so nothing below it can lead elsewhere; a write makes plain
    folders). Without a link, a path with no ``..`` can't leave the folder it starts in."""
    for path in along:
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            return path
    return None


def open_inside(root: Path, rel: str) -> int:
    """A file descriptor for reading ``root / rel``, opened one part at a time from ``root``
    without following any link (``O_NOFOLLOW`` on each part). Unlike a check made before a
    path is opened, nothing swapped in meanwhile (a file or a folder replaced by a link to
    elsewhere) can lead the read outside the project: such a part is refused here.

    Raises :class:`UnsafePathError` for a path that leaves the project or passes through a
    link, :class:`FileNotFoundError` (and other ``OSError``) as ``open`` does."""
    parts = check_relative(rel).parts
    if os.open not in os.supports_dir_fd:  # Windows: no openat; check, then open the checked path
        return os.open(resolve_inside(root, rel), os.O_RDONLY | getattr(os, "O_BINARY", 0))
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    folder_flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            # O_NONBLOCK: a named pipe put in a file's place opens at once (then refused as not
            # a regular file) instead of waiting for a writer
            flags = (os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)) if last \
                else folder_flags
            try:
                child = os.open(part, flags, dir_fd=fd)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link_at(part, fd):
                    raise UnsafePathError(f"Refused the path {rel!r}: {'/'.join(parts[:index + 1])} is a link "
                                          "(it could lead outside the project).") from None
                raise
            os.close(fd)
            fd = child
        return fd
    except BaseException:
        os.close(fd)
        raise


def _is_link_at(name: str, folder_fd: int) -> bool:
    """Whether ``name`` in the open folder ``folder_fd`` is a symbolic link."""
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=folder_fd).st_mode)
    except OSError:
        return False


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


def open_resolved_inside(root: Path, rel: str) -> int:
    """A read-only descriptor of ``root / rel`` as :func:`open_inside` opens it, except that a
    path through a link leading to another place inside ``root`` is opened at that place
    (reached again without following any link); a link leading outside raises
    :class:`UnsafePathError`. What :meth:`Project.open_media
    <studio.storage.project.Project.open_media>` does, for code that holds only the folder."""
    try:
        return open_inside(root, rel)
    except UnsafePathError:
        target = resolve_inside(root, rel)  # refused when the link leads outside
        return open_inside(root, target.relative_to(root.resolve()).as_posix())


def descriptor_name(fd: int) -> Path | None:
    """A name that opens the very file open as ``fd``, in this process and in the programs it
    starts (ffmpeg takes a name, not a descriptor): ``/proc/PID/fd/FD`` where the system has it.
    Opening it reaches the file the descriptor holds, whatever its path names now, so a link
    swapped in at that path is never followed. None where there is no such name (then
    :func:`private_copy`)."""
    name = Path(f"/proc/{os.getpid()}/fd/{fd}")
    try:
        same = os.path.samestat(os.stat(name), os.fstat(fd))
    except OSError:
        return None
    return name if same else None


def private_copy(fd: int, folder: Path, name: str) -> Path:
    """Copy the file open as ``fd`` into ``folder / name`` (a folder of this process's own) and
    return that path: what a program that takes a name reads where :func:`descriptor_name`
    has none."""
    target = folder / name
    with os.fdopen(os.dup(fd), "rb") as source, open(target, "xb") as copy:
        source.seek(0)
        while chunk := source.read(1 << 20):
            copy.write(chunk)
    return target
