"""Writing a take's files: representation, clip and poster, all before the take row.

Each file is written atomically (temp file, fsync, rename) into the take's own folder, so
a crash leaves at most a folder that no row names; :func:`remove_take_media` clears it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from studio.engines.base import Clip, Prediction
from studio.storage import media
from studio.storage.paths import UnsafePathError
from studio.storage.project import Project


@dataclass(frozen=True)
class TakeFiles:
    """Relative paths of a take's files."""

    representation_path: str
    clip_path: str
    poster_path: str


def take_files(project: Project, take_id: str) -> TakeFiles:
    folder = project.take_media_dir(take_id)
    return TakeFiles(
        representation_path=f"{folder}/{media.REPRESENTATION_NAME}",
        clip_path=f"{folder}/{media.CLIP_NAME}",
        poster_path=f"{folder}/{media.POSTER_NAME}",
    )


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
    """Write the three files; ``step(done, 3)`` after each so the bar can move."""
    files = take_files(project, take_id)
    report = step or (lambda done, total: None)
    media.write_representation(project.resolve(files.representation_path), prediction.representation, metadata)
    report(1, 3)
    media.write_clip(project.resolve(files.clip_path), clip.frames, clip.fps)
    report(2, 3)
    media.write_poster(project.resolve(files.poster_path), poster_frame(clip.frames))
    report(3, 3)
    return files


def remove_take_media(project: Project, take_id: str) -> None:
    """Remove a take's folder (a failed, cancelled or interrupted job's leftovers)."""
    try:
        folder = project.resolve(project.take_media_dir(take_id))
    except UnsafePathError:
        return
    if folder.is_dir():
        shutil.rmtree(folder, ignore_errors=True)


def jsonable(value: Any) -> Any:
    """``value`` made JSON-safe: numpy scalars and arrays to Python, tuples to lists."""

    def convert(item: Any) -> Any:
        if isinstance(item, np.generic):
            return item.item()
        if isinstance(item, np.ndarray):
            return item.tolist()
        if isinstance(item, Mapping):
            return {str(k): convert(v) for k, v in item.items()}
        if isinstance(item, list | tuple | set | frozenset):
            return [convert(v) for v in item]
        return item

    converted = convert(value)
    json.dumps(converted)  # raise here, with the engine named by the caller, not in the db
    return converted
