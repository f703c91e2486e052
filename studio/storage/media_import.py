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
from studio.storage.atomic import atomic_path
from studio.storage.project import MEDIA_DIR, Project

MAX_IMAGE_BYTES = 50 * 1024 * 1024
MAX_IMAGE_SIDE = 4096


class ImageImportError(StudioError):
    """An image that can't be imported (missing, too large, not an image)."""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "image"


def import_image(project: Project, source: Path, folder: str = "locations") -> str:
    """Copy ``source`` into ``media/<folder>/`` as PNG; return its project-relative path."""
    from PIL import Image, UnidentifiedImageError

    if not source.is_file():
        raise ImageImportError(f"{source} does not exist.")
    size = source.stat().st_size
    if size > MAX_IMAGE_BYTES:
        raise ImageImportError(f"{source.name} is {size / 1e6:.0f} MB; images are limited to "
                               f"{MAX_IMAGE_BYTES // 1_000_000} MB.")
    try:
        with Image.open(source) as image:
            image.load()
            picture = image.convert("RGB")
    except (UnidentifiedImageError, OSError) as error:
        raise ImageImportError(f"{source.name} is not a readable image: {error}.") from None
    if max(picture.size) > MAX_IMAGE_SIDE:
        picture.thumbnail((MAX_IMAGE_SIDE, MAX_IMAGE_SIDE))
    rel = f"{MEDIA_DIR}/{_slug(folder)}/{_slug(source.stem)}-{new_id()}.png"
    with atomic_path(project.resolve(rel)) as tmp:
        picture.save(tmp, format="PNG")
    return rel
