"""Writing a take's files: representation, clip and poster, all before the take row.

Each file is written atomically (temp file, fsync, rename) into the take's own folder, so
a crash leaves at most a folder that no row names; :meth:`Project.remove_take_media` clears it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, BinaryIO

from studio.core.errors import StudioError
from studio.engines.base import Clip, Prediction
from studio.storage import media
from studio.storage.paths import UnsafePathError, open_resolved_inside, resolve_inside
from studio.storage.project import Project
from studio.worker.host_job import MediaFile

if TYPE_CHECKING:
    import numpy as np


class MediaFolderOutsideError(StudioError):
    """The project's media folder (or a folder below it) is a link that leads outside it."""


@dataclass(frozen=True)
class TakeFiles:
    """Relative paths of a take's files."""

    representation_path: str
    clip_path: str
    poster_path: str


def take_files(project: Project, take_id: str) -> TakeFiles:
    """Where a new take's files go (what :func:`write_take_media` writes)."""
    folder = project.take_media_dir(take_id)
    names = take_file_names(folder)
    return TakeFiles(*(f"{folder}/{name}" for name in names))


def take_file_names(folder: str) -> tuple[str, str, str]:
    """The names of the representation, clip and poster written into the take's ``folder``
    (``media/takes/ID``): the clip is named after the take (:func:`media.clip_name`), the
    folder's name being its id, so that the engine host, which is given only the folder,
    names it as the project does."""
    return media.REPRESENTATION_NAME, media.clip_name(PurePosixPath(folder).name), media.POSTER_NAME


def poster_frame(frames: np.ndarray) -> np.ndarray:
    """The middle frame: the first is often a held pose from the previous clip."""
    middle: np.ndarray = frames[len(frames) // 2]
    return middle


def write_take_media(
    project: Project,
    take_id: str,
    prediction: Prediction,
    clip: Clip,
    metadata: Mapping[str, Any] | None = None,
    step: Callable[[int, int], None] | None = None,
) -> TakeFiles:
    """Write the three files, calling ``step(done, total)`` as they are written (see
    :func:`write_media_files`)."""
    written = write_media_files(project.path, project.take_media_dir(take_id), prediction, clip, metadata, step)
    return TakeFiles(*(file.path for file in written))


def write_media_files(
    root: Path,
    folder: str,
    prediction: Prediction,
    clip: Clip,
    metadata: Mapping[str, Any] | None = None,
    step: Callable[[int, int], None] | None = None,
) -> tuple[MediaFile, MediaFile, MediaFile]:
    """Write representation, clip and poster into ``root / folder`` (each atomically) and
    return them relative to ``root`` with their sizes and checksums. Runs in the engine
    host, which may be a child process that knows nothing of the project but its folder."""
    check_media_folder(root, folder)
    report = step or (lambda done, total: None)
    paths = [f"{folder}/{name}" for name in take_file_names(folder)]
    frames = len(clip.frames)
    total = frames + POSTER_FRAMES
    media.write_representation(root / paths[0], prediction.representation, metadata)
    report(0, total)
    media.write_clip(root / paths[1], clip.frames, clip.fps, lambda done: report(done, total))
    media.write_poster(root / paths[2], poster_frame(clip.frames))
    report(total, total)
    representation, clip_file, poster = (describe_file(root, path) for path in paths)
    return representation, clip_file, poster


POSTER_FRAMES = 8
"""What saving the poster (one full-size PNG) costs, in clip frames encoded: writing is
reported in these units, so the bar moves with the encoder instead of jumping once per
file (the clip is nearly all of the write; the representation is a few kilobytes)."""


def check_media_folder(root: Path, folder: str) -> Path:
    """``root / folder`` resolved, refused before anything is written when it leads
    outside the project (``media`` or ``media/takes`` replaced by a link elsewhere)."""
    try:
        return resolve_inside(root, folder)
    except UnsafePathError:
        pass
    link, place = root / folder, root
    for part in PurePosixPath(folder).parts:  # name the link the user has to replace
        place = place / part
        if place.is_symlink():
            link = place
            break
    shown = link.relative_to(root).as_posix()
    raise MediaFolderOutsideError(
        f"Can't write the take's files: the project's media folder {shown} points outside the project "
        f"({link} leads to {link.resolve()}).",
        hint=f"Nothing was written. Replace {link} with a real folder inside the project (move what it holds "
        "into the project first), then generate again.")


def describe_file(root: Path, relative: str) -> MediaFile:
    """``relative``'s size and checksum, read through one descriptor opened without following
    a link (a link to elsewhere put in place of the file just written is refused)."""
    with os.fdopen(open_resolved_inside(root, relative), "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        return MediaFile(path=relative, size=size, sha256=_sha256_of(handle))


def verify_media(project: Project, files: tuple[MediaFile, ...]) -> str:
    """What is wrong with the files a host says it wrote ("" when each is there, inside
    the project, with the size and checksum the host reported)."""
    for file in files:
        try:
            project.resolve(file.path)
        except UnsafePathError:
            return f"The engine host named a file outside the project: {file.path}."
        try:  # opened without following a link put in place since the check above
            opened = project.open_media(file.path)
        except UnsafePathError:
            return f"The engine host's file {file.path} was replaced by a link to a file outside the project."
        except OSError:
            return f"The engine host's file {file.path} is missing."
        with os.fdopen(opened, "rb") as handle:
            status = os.fstat(handle.fileno())
            if not stat.S_ISREG(status.st_mode):
                return f"The engine host's file {file.path} is missing."
            if status.st_size != file.size or _sha256_of(handle) != file.sha256:
                return f"The engine host's file {file.path} is not what it wrote (size or checksum differ)."
    return ""


def _sha256_of(handle: BinaryIO) -> str:
    """The SHA-256 of what is left to read from ``handle``, read in 1 MiB pieces."""
    digest = hashlib.sha256()
    while chunk := handle.read(1 << 20):
        digest.update(chunk)
    return digest.hexdigest()


def jsonable(value: Any) -> Any:
    """``value`` made JSON-safe: numpy scalars and arrays to Python, tuples to lists."""

    np = sys.modules.get("numpy")  # not loaded (the window's process): no value is numpy's

    def convert(item: Any) -> Any:
        if np is not None and isinstance(item, np.generic):
            return item.item()
        if np is not None and isinstance(item, np.ndarray):
            return item.tolist()
        if isinstance(item, Mapping):
            return {str(k): convert(v) for k, v in item.items()}
        if isinstance(item, list | tuple | set | frozenset):
            return [convert(v) for v in item]
        return item

    converted = convert(value)
    json.dumps(converted)  # raise here, with the engine named by the caller, not in the db
    return converted
