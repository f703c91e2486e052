"""Copy a user's image (a location background, a character reference) or video (a
location's scene clip) into the project.

Projects are self-contained: the studio never stores a path outside the project folder,
so an image the user picks is checked, re-encoded as PNG and written atomically under
``media/<folder>/``; a video is probed, then re-encoded (its first video stream only, no
sound, at most :data:`MAX_SCENE_FRAMES` frames, its longer side at most
:data:`MAX_SCENE_SIDE`) as H.264 mp4 the same way. The returned relative path is what the
document stores.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from studio.core.errors import StudioError
from studio.core.model import new_id
from studio.storage.media import writing_media
from studio.storage.project import MEDIA_DIR, Project

MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_SIDE = 4096
MAX_IMPORT_PIXELS = 1024 * 1024 * 1024 // 4 // 3
"""Most pixels of a picture decoded on import (89.5 megapixels, Pillow's own default limit
against decompression bombs: a 9,000 x 9,000 scan fits); it is then scaled down to
:data:`MAX_IMAGE_SIDE`. A JPEG is decoded at the fraction of its size that still fits."""
MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024
MAX_VIDEO_SIDE = 8192
MAX_SCENE_FRAMES = 1800
"""A scene clip keeps its first 1,800 frames (a minute at 30 fps); engines loop shorter ones."""
MAX_SCENE_SIDE = 1280
"""A scene clip's longer side is scaled down to this (engines work at 624 x 352 or 1248 x 704)."""
VIDEO_SUFFIXES = (".mp4", ".webm", ".mov", ".mkv", ".avi", ".gif", ".m4v")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
VIEWS_FOLDER = "characters"
"""Where a character's reference views are copied: their transparent parts are laid on the grey
the CustomX release lays views on (:data:`~studio.storage.images.VIEW_BACKGROUND`), those of
every other picture on white."""


class ImageImportError(StudioError):
    """An image that can't be imported (missing, too large, not an image)."""


class VideoImportError(StudioError):
    """A video that can't be imported (missing, too large, not a video)."""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "image"


def _check_writable(project: Project, source: Path, error: type[StudioError]) -> None:
    """Refuse to copy into a project opened read-only: another program is its writer, and
    nothing this one could store would ever name the copy; or into a project whose folder
    was moved or deleted since it was opened (the copy would go to the old place)."""
    if project.read_only:
        raise error(f"Can't import {source.name}: the project {project.path.name} is open read-only.",
                    hint="Close the program that has it open, then open it again here.")
    project.check_in_place(f"import {source.name}")


def import_images(project: Project, sources: Sequence[Path], folder: str = VIEWS_FOLDER) -> list[str]:
    """Import every picture of ``sources`` (a character's views), or none: when one is
    refused, the copies of those before it are removed before the error is raised."""
    made: list[str] = []
    try:
        for source in sources:
            made.append(import_image(project, source, folder))
    except BaseException:
        project.discard_imports(made)
        raise
    return made


def import_image(project: Project, source: Path, folder: str = "locations") -> str:
    """Copy ``source`` into ``media/<folder>/`` as PNG; return its project-relative path.

    The file size and the pixel count (read from the header) are checked before the image
    is decoded; a picture larger than :data:`MAX_IMAGE_SIDE` is scaled down, and transparent
    parts are laid on white (see :func:`~studio.storage.images.open_image`), or on grey 128 for
    a character's reference view (``folder`` :data:`VIEWS_FOLDER`). Files already in a project
    are never changed."""
    from studio.storage.images import BACKGROUND, VIEW_BACKGROUND, open_image
    from studio.storage.media import MediaError

    _check_writable(project, source, ImageImportError)
    if not source.exists():
        raise ImageImportError(gone_message(source), hint=GONE_HINT)
    try:
        picture = open_image(source, max_pixels=MAX_IMPORT_PIXELS, max_bytes=MAX_IMAGE_BYTES,
                             max_side=MAX_IMAGE_SIDE, background=_background_for(folder, VIEW_BACKGROUND, BACKGROUND))
    except MediaError as error:
        raise ImageImportError(error.message, hint=error.hint) from None
    rel = f"{MEDIA_DIR}/{_slug(folder)}/{_slug(source.stem)}-{new_id()}.png"
    with writing_media(project.resolve(rel)) as tmp:
        picture.save(tmp, format="PNG")
    project.note_import(rel)
    return rel


def _background_for(folder: str, view: tuple[int, int, int], other: tuple[int, int, int]) -> tuple[int, int, int]:
    """What the transparent parts of a picture copied into ``folder`` are laid on."""
    return view if _slug(folder) == VIEWS_FOLDER else other


def is_video(path: Path | str) -> bool:
    """Whether ``path`` names a video by its suffix (what the import and the engines go by)."""
    return Path(path).suffix.lower() in VIDEO_SUFFIXES


def import_video(project: Project, source: Path, folder: str = "scenes") -> str:
    """Re-encode ``source``'s video into ``media/<folder>/`` as mp4; return its project-relative path.

    The file size, the stream and its size are checked (ffmpeg reads the header and counts
    the frames without decoding) before anything is written."""
    from studio.storage.ffmpeg import MediaError, h264_args, path_arg, probe, run_with_progress
    from studio.storage.media import writing_media

    _check_writable(project, source, VideoImportError)
    try:
        if not source.exists():
            raise VideoImportError(gone_message(source), hint=GONE_HINT)
        if not source.is_file():
            raise VideoImportError(f"{source} is not a file (a folder, or a device).",
                                   hint="Choose a video file (mp4, webm, mov, ...).")
        size = source.stat().st_size
    except OSError as error:
        raise VideoImportError(f"Can't read {source}: {error.strerror or error}.") from None
    if size > MAX_VIDEO_BYTES:
        raise VideoImportError(f"The video {source.name} is {size:,} bytes; the limit is {MAX_VIDEO_BYTES:,}.")
    try:
        info = probe(source)
    except MediaError as error:
        if _sound_only(source):
            raise VideoImportError(
                f"The video {source.name} holds sound only: it has no picture (no video track) to make a scene "
                f"from ({source}).",
                hint="Choose a video with a picture, or a still picture of the place (PNG, JPEG, WebP).") from None
        raise VideoImportError(error.message, hint="Choose a video file (mp4, webm, mov, ...).") from None
    if max(info.size) > MAX_VIDEO_SIDE:
        raise VideoImportError(f"The video {source.name} is {info.width:,} x {info.height:,}; the limit is "
                               f"{MAX_VIDEO_SIDE:,} pixels a side.")
    frames = min(info.frames, MAX_SCENE_FRAMES)
    fit = f"min(1\\,{MAX_SCENE_SIDE}/max(iw\\,ih))"
    scale = f"scale=trunc(iw*{fit}/2)*2:trunc(ih*{fit}/2)*2:flags=bicubic,setsar=1"
    rel = f"{MEDIA_DIR}/{_slug(folder)}/{_slug(source.stem)}-{new_id()}.mp4"
    target = project.resolve(rel)
    with writing_media(target) as tmp:
        args = ["-i", path_arg(source), "-map", "0:v:0", "-an", "-sn", "-dn", "-frames:v", str(frames), "-vf", scale,
                *h264_args(crf=16, threads=2), "-f", "mp4", path_arg(tmp)]
        run_with_progress(args, tmp, frames / float(info.fps), lambda _seconds: None, lambda: False, "import")
    project.note_import(rel)
    return rel


GONE_HINT = "Choose it again from where it is now."


def gone_message(source: Path) -> str:
    """What is said of a file chosen a moment ago that is no longer there."""
    return (f"{source.name} does not exist in {source.parent} any more: it was moved, renamed or deleted (or its drive "
            "was removed) since it was chosen.")


def _sound_only(source: Path) -> bool:
    """Whether ffmpeg reads streams in ``source`` but none of them is a video (an audio file
    named .mp4, a voice memo): asked only once the probe has refused the file, to say why."""
    import subprocess

    from studio.storage.ffmpeg import ffmpeg_exe, path_arg

    try:
        report = subprocess.run([ffmpeg_exe(), "-hide_banner", "-nostdin", "-i", path_arg(source)], capture_output=True,
                                text=True, errors="replace", check=False, timeout=60).stderr
    except (OSError, subprocess.SubprocessError):
        return False
    streams = [line for line in report.splitlines() if re.match(r"\s*Stream #\d+:\d+", line)]
    return any(": Audio:" in line for line in streams) and not any(": Video:" in line for line in streams)


def import_media(project: Project, source: Path, folder: str = "locations") -> str:
    """A video (by its suffix) through :func:`import_video`, anything else through :func:`import_image`."""
    if is_video(source):
        return import_video(project, source, folder)
    return import_image(project, source, folder)
