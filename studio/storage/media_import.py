"""Copy a user's image (a location background, a character reference) into the project.

Projects are self-contained: the studio never stores a path outside the project folder,
so an image the user picks is checked, re-encoded as PNG and written atomically under
``media/<folder>/``. The returned relative path is what the document stores.
"""

from __future__ import annotations

import re
from pathlib import Path

from studio.core.errors import StudioError
from studio.core.model import new_id
from studio.storage.media import writing_media
from studio.storage.project import MEDIA_DIR, Project

MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_SIDE = 4096
MAX_IMPORT_PIXELS = 64 * 1024 * 1024
"""Largest picture a user may import (a 64-megapixel photo); it is then scaled down."""


class ImageImportError(StudioError):
    """An image that can't be imported (missing, too large, not an image)."""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "image"


def import_image(project: Project, source: Path, folder: str = "locations") -> str:
    """Copy ``source`` into ``media/<folder>/`` as PNG; return its project-relative path.

    The file size and the pixel count (read from the header) are checked before the image
    is decoded; a picture larger than :data:`MAX_IMAGE_SIDE` is scaled down."""
    from studio.storage.images import open_image
    from studio.storage.media import MediaError

    if not source.exists():
        raise ImageImportError(f"{source} does not exist.")
    try:
        picture = open_image(source, max_pixels=MAX_IMPORT_PIXELS, max_bytes=MAX_IMAGE_BYTES)
    except MediaError as error:
        raise ImageImportError(error.message) from None
    if max(picture.size) > MAX_IMAGE_SIDE:
        picture.thumbnail((MAX_IMAGE_SIDE, MAX_IMAGE_SIDE))
    rel = f"{MEDIA_DIR}/{_slug(folder)}/{_slug(source.stem)}-{new_id()}.png"
    with writing_media(project.resolve(rel)) as tmp:
        picture.save(tmp, format="PNG")
    return rel
