"""Opening images from project files or from users without trusting them.

A PNG of a few dozen kilobytes can declare 20000 x 20000 pixels and take gigabytes to
decode. :func:`open_image` reads only the header first and refuses an image whose file
or pixel count is over the limit, with a message that says the limit; Pillow's own
decompression-bomb warning never reaches the user.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

from PIL import Image, ImageOps

from studio.storage.media import MediaError

MAX_IMAGE_PIXELS = 4096 * 4096
"""Largest image decoded (16.8 megapixels; posters are the size of a clip frame)."""
MAX_IMAGE_FILE_BYTES = 50 * 1024 * 1024


def open_image(path: Path, max_pixels: int = MAX_IMAGE_PIXELS, max_bytes: int = MAX_IMAGE_FILE_BYTES,
               what: str = "image") -> Image.Image:
    """``path`` decoded as RGB, after its size and pixel count were checked from its header,
    turned as its EXIF orientation says."""
    try:
        if not path.is_file():
            raise MediaError(f"The {what} {path} is missing or is not a regular file.")
        size = path.stat().st_size
    except OSError as error:
        raise MediaError(f"Can't read the {what} {path}: {error.strerror or error}.") from None
    if size > max_bytes:
        raise MediaError(f"The {what} {path.name} is {size:,} bytes; the limit is {max_bytes:,}.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            with Image.open(path) as image:
                width, height = image.size
                if width * height > max_pixels:
                    raise MediaError(f"The {what} {path.name} is {width:,} x {height:,} pixels; the limit is "
                                     f"{max_pixels / 1e6:.1f} megapixels.")
                image.load()
                # upright as the camera meant it: a phone's portrait photo is stored sideways,
                # with an orientation tag that every viewer applies
                upright = ImageOps.exif_transpose(image)
                converted: Image.Image = (upright if upright is not None else image).convert("RGB")
                return converted
        except Image.DecompressionBombError as error:  # Pillow's own, far larger, limit: at open
            declared = re.search(r"\((\d+) pixels\)", str(error))
            pixels = f"{int(declared[1]):,} pixels" if declared else "too many pixels"
            raise MediaError(f"The {what} {path.name} declares {pixels}; the limit is "
                             f"{max_pixels / 1e6:.1f} megapixels.") from None
        except (OSError, ValueError, SyntaxError) as error:
            raise MediaError(f"The {what} {path.name} is not a readable image: {error}.") from None
