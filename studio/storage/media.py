"""Media files of a take: the clip (H.264 mp4), its poster (PNG) and the representation
(.safetensors). Writers are atomic; readers check what they read.

ffmpeg is driven by :mod:`studio.storage.ffmpeg` (probe, decode, encode).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.storage import ffmpeg
from studio.storage.atomic import atomic_path
from studio.storage.errors import (
    Problem,
    ProjectFileError,
    ProjectReadOnlyError,
    classify_errno,
    describe_os_error,
    read_only_error,
)
from studio.storage.ffmpeg import MediaError, StreamInfo, ffmpeg_exe, probe
from studio.storage.paths import CLIP_NAME, POSTER_NAME, REPRESENTATION_NAME, clip_name, not_a_folder
from studio.storage.place import check_folder_there, project_folder_of
from studio.storage.project import MEDIA_DIR

if TYPE_CHECKING:  # numpy is imported where frames are handled: the window reads none at start
    import numpy as np

__all__ = [
    "CLIP_NAME", "POSTER_NAME", "REPRESENTATION_NAME", "MediaError", "StreamInfo", "VideoInfo", "clip_name",
    "encode_mp4", "ffmpeg_exe", "probe", "read_clip", "read_representation", "write_clip", "write_poster",
    "write_representation", "writing_media",
]
VideoInfo = StreamInfo
"""What :func:`probe` returns (its former name)."""


CLIP_CRF = 17
"""Visually lossless H.264 (the design asks for CRF 18 or better)."""
MAX_REPRESENTATION_BYTES = 256 * 1024 * 1024
"""Largest representation file read (AnimeGamer's is 226 x 1920 float32: 1.7 MB)."""
MAX_CLIP_FRAME_PIXELS = 3840 * 2160
MAX_CLIP_DECODED_BYTES = 2 * 1024**3
"""A clip (from a bundle, say) is decoded only if its frames fit these limits."""


def encode_mp4(path: Path, frames: np.ndarray, fps: float, crf: int = CLIP_CRF, preset: str = "veryfast",
               threads: int = 1, encoded: Callable[[int], None] | None = None) -> None:
    """Encode a take's clip (not atomic: see :func:`write_clip`). One thread: each
    device's engine host encodes its own clips, so the cores are shared by devices.
    ``encoded(n)``: see :func:`studio.storage.ffmpeg.encode_mp4`."""
    ffmpeg.encode_mp4(path, frames, fps, crf, preset, threads, encoded)


@contextlib.contextmanager
def writing_media(path: Path) -> Iterator[Path]:
    """:func:`atomic_path`, with a full disk or a read-only folder told of ``path`` (the
    file the user knows), never of its hidden temporary file.

    Every media file of a project is written here (a take's files, by the engine host too;
    imported pictures and clips), so this is where a project folder moved or deleted while
    it is open is noticed (:func:`check_folder_there`): before the folders above ``path``
    would be made again at the old place, and when a write fails because the folder went
    away meanwhile."""
    what = f"write {path.name}"
    check_folder_there(path, MEDIA_DIR, what)
    try:
        with atomic_path(path) as tmp:
            try:
                yield tmp
            except MediaError as error:  # ffmpeg names the file it was given
                check_folder_there(path, MEDIA_DIR, what)
                raise MediaError(error.message.replace(tmp.name, path.name), error.hint) from None
    except OSError as error:
        check_folder_there(path, MEDIA_DIR, what)
        if error.errno in (errno.ENOTDIR, errno.EEXIST):
            blocked = _folder_in_the_way(path, what)
            if blocked is not None:
                raise blocked from None
        if classify_errno(error.errno) is Problem.READ_ONLY:
            raise _read_only_media(path, what) from None
        raise describe_os_error(error, path.parent, what) from None


def _read_only_media(path: Path, what: str) -> ProjectReadOnlyError:
    """A media write refused by the system (a read-only disk, or folders made read-only with
    ``chmod -w``): the folder that could not be written, named as part of its project (a
    take's ``media/takes/ID/`` is no project folder of its own)."""
    top = project_folder_of(path, MEDIA_DIR)
    # the folder that refused: the file's own, or the nearest one above it that exists (a
    # take's folder could not be made in a read-only media/takes/)
    folder = next((f for f in path.parents if os.path.isdir(f)), path.parent)
    shown = f"the project's folder {folder.relative_to(top).as_posix()}/ ({folder})" if top is not None and \
        top in folder.parents else f"the folder {folder}"
    error = read_only_error(top or folder, what)
    return ProjectReadOnlyError(f"Can't {what}: {shown} is read-only.", hint=error.hint)


def _folder_in_the_way(path: Path, what: str) -> ProjectFileError | None:
    """The error naming the first folder above ``path`` (from its project's ``media/`` down)
    that is something else (a file called ``media``): the system said only "Not a directory"
    (or "File exists"), and the user could not tell what to move away. None if all are
    folders (the error was about something else)."""
    top = project_folder_of(path, MEDIA_DIR)
    for folder in reversed(path.parents):
        if top is not None and top not in folder.parents:
            continue
        kind = not_a_folder(folder)
        if kind:
            shown = folder.relative_to(top).as_posix() + "/" if top is not None else str(folder)
            return ProjectFileError(
                f"Can't {what}: the project's {shown} is {kind}, not a folder ({folder}).",
                hint=f"Nothing was written. Move or rename {folder} (it may hold something of yours); the folder is "
                "made again by the next try.")
    return None


def write_clip(path: Path, frames: np.ndarray, fps: float, encoded: Callable[[int], None] | None = None) -> None:
    """The take's clip, atomically; ``encoded(n)`` as its n-th frame is encoded (progress)."""
    with writing_media(path) as tmp:
        encode_mp4(tmp, frames, fps, encoded=encoded)


def write_poster(path: Path, frame: np.ndarray) -> None:
    import numpy as np
    from PIL import Image

    with writing_media(path) as tmp:
        Image.fromarray(np.ascontiguousarray(frame, dtype=np.uint8)).save(tmp, format="PNG")


def write_representation(path: Path, representation: np.ndarray, metadata: Mapping[str, Any] | None = None) -> None:
    import numpy as np
    from safetensors.numpy import save

    meta = {"format": "kamishibai-representation"}
    if metadata:
        meta["metadata"] = json.dumps(dict(metadata), ensure_ascii=False, sort_keys=True)
    data = save({"representation": np.ascontiguousarray(representation, dtype=np.float32)}, metadata=meta)
    with writing_media(path) as tmp:
        tmp.write_bytes(data)


def read_representation(path: Path, opened: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
    """The representation and the metadata written with it (engine, space, seed...).

    ``opened``: a read-only descriptor of the file (:meth:`Project.open_media
    <studio.storage.project.Project.open_media>`, which follows no link), read instead of
    opening ``path`` (then only named in messages); it is closed here either way. Without it
    the file itself is not followed if it is a link."""
    if opened is None:
        try:
            opened = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                             | getattr(os, "O_CLOEXEC", 0))
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise MediaError(f"The representation {path} is a link, not a regular file.") from None
            raise MediaError(f"Can't read the representation {path}: {error.strerror or error}.") from None
    try:
        info = os.fstat(opened)
        if not stat.S_ISREG(info.st_mode):  # reading a named pipe would wait for a writer for good
            raise MediaError(f"The representation {path} is not a regular file.")
        if info.st_size > MAX_REPRESENTATION_BYTES:
            raise MediaError(f"The representation {path} is {info.st_size:,} bytes; the limit is "
                             f"{MAX_REPRESENTATION_BYTES:,}.")
        with os.fdopen(opened, "rb", closefd=False) as handle:
            data = handle.read(MAX_REPRESENTATION_BYTES + 1)
    except OSError as error:
        raise MediaError(f"Can't read the representation {path}: {error.strerror or error}.") from None
    finally:
        os.close(opened)
    if len(data) > MAX_REPRESENTATION_BYTES:  # it grew while it was read
        raise MediaError(f"The representation {path} is over the limit of {MAX_REPRESENTATION_BYTES:,} bytes.")
    return _representation_from(data, path)


def _representation_from(data: bytes, path: Path) -> tuple[np.ndarray, dict[str, Any]]:
    """The ``representation`` tensor of a safetensors file's ``data`` and the metadata in its header."""
    from safetensors import SafetensorError
    from safetensors.numpy import load

    try:
        array = load(data)["representation"]
        header_size = int.from_bytes(data[:8], "little")
        header = json.loads(data[8:8 + header_size]).get("__metadata__") or {}
    except (SafetensorError, KeyError, ValueError, AttributeError) as error:
        raise MediaError(f"Can't read the representation {path}: {error}.") from None
    try:
        metadata = json.loads(header.get("metadata", "{}")) if isinstance(header, dict) else {}
    except (ValueError, TypeError):
        metadata = {}
    return array, metadata if isinstance(metadata, dict) else {}


def read_clip(path: Path) -> tuple[np.ndarray, float]:
    """Decode a video to uint8 T x H x W x 3 frames and its fps, within the limits above."""
    info = probe(path)
    width, height = info.size
    if width * height > MAX_CLIP_FRAME_PIXELS:
        raise MediaError(f"{path} is {width} x {height} pixels; clips are limited to "
                         f"{MAX_CLIP_FRAME_PIXELS / 1e6:.1f} megapixels.")
    limit = max(1, MAX_CLIP_DECODED_BYTES // (width * height * 3))
    if info.frames > limit:
        raise _too_long(path, limit, width, height)
    try:
        frames = list(ffmpeg.decode_frames(path, info.size, limit=limit))
    except MediaError as error:
        if "more than" in error.message:
            raise _too_long(path, limit, width, height) from None
        raise
    if not frames:
        raise MediaError(f"{path} holds no frames.")
    import numpy as np

    return np.stack(frames), float(info.fps)


def _too_long(path: Path, limit: int, width: int, height: int) -> MediaError:
    return MediaError(f"{path} holds more than {limit:,} frames of {width} x {height}; "
                      f"a clip decodes to at most {MAX_CLIP_DECODED_BYTES / 1024**3:.0f} GiB.")
