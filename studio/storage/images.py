"""Opening images from project files or from users without trusting them.

A PNG of a few dozen kilobytes can declare 20000 x 20000 pixels and take gigabytes to
decode. :func:`open_image` reads only the header first and refuses an image whose file
or pixel count is over the limit, with a message that names the file, its size, the limit
and what to do; Pillow's own decompression-bomb warning never reaches the user.

What comes back is always plain 8-bit RGB as a viewer shows the picture: transparent parts
(character art is mostly drawn on a transparent background) lie on white, not on the black
that dropping the alpha channel leaves; a 16-bit greyscale PNG keeps its shades.
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

from studio.storage.media import MediaError

MAX_IMAGE_PIXELS = 4096 * 4096
"""Largest image decoded (16.8 megapixels; posters are the size of a clip frame)."""
MAX_IMAGE_FILE_BYTES = 50 * 1024 * 1024
BACKGROUND = (255, 255, 255)
"""What a transparent part of a picture is laid on."""


def open_image(path: Path, max_pixels: int = MAX_IMAGE_PIXELS, max_bytes: int = MAX_IMAGE_FILE_BYTES,
               what: str = "image", max_side: int | None = None) -> Image.Image:
    """``path`` decoded as RGB, after its size and pixel count were checked from its header,
    turned as its EXIF orientation says, its transparent parts on white; with ``max_side``,
    scaled down to fit ``max_side`` x ``max_side``.

    ``max_pixels`` bounds what is decoded: a JPEG that ``max_side`` lets decode at a half,
    a quarter or an eighth of its size counts at that size."""
    try:
        if not path.is_file():
            raise MediaError(f"The {what} {path} is missing or is not a regular file.")
        size = path.stat().st_size
    except OSError as error:
        raise MediaError(f"Can't read the {what} {path}: {error.strerror or error}.") from None
    if size > max_bytes:
        raise MediaError(f"The {what} {path.name} is {size:,} bytes; the limit is {max_bytes:,}.",
                         hint="Save it again smaller (as JPEG, or at fewer pixels) in an image editor.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            with Image.open(path) as image:
                width, height = image.size
                if max_side is not None and image.format == "JPEG":
                    image.draft(None, (max_side, max_side))  # decoded at 1/2, 1/4 or 1/8 when that still fits
                decoded_width, decoded_height = image.size
                if decoded_width * decoded_height > max_pixels:
                    raise MediaError(f"The {what} {path.name} is {width:,} x {height:,} pixels "
                                     f"({width * height / 1e6:.1f} megapixels); the limit is "
                                     f"{max_pixels / 1e6:.1f} megapixels.",
                                     hint=_smaller_hint(width, height, max_pixels, max_side))
                image.load()
                # upright as the camera meant it: a phone's portrait photo is stored sideways,
                # with an orientation tag that every viewer applies
                upright = ImageOps.exif_transpose(image)
                picture = _eight_bit(upright if upright is not None else image)
                if max_side is not None and max(picture.size) > max_side:
                    picture.thumbnail((max_side, max_side))  # RGBA is scaled premultiplied: no dark fringes
                return _on_background(picture)
        except Image.DecompressionBombError as error:  # Pillow's own, far larger, limit: at open
            declared = re.search(r"\((\d+) pixels\)", str(error))
            pixels = f"{int(declared[1]):,} pixels" if declared else "too many pixels"
            raise MediaError(f"The {what} {path.name} declares {pixels}; the limit is "
                             f"{max_pixels / 1e6:.1f} megapixels.",
                             hint=_smaller_hint(0, 0, max_pixels, max_side)) from None
        except (OSError, ValueError, SyntaxError) as error:
            raise MediaError(f"The {what} {path.name} is not a readable image: {error}.",
                             hint="Choose a PNG, JPEG, WebP or BMP picture, or save this one again as PNG "
                                  "in an image editor.") from None


def _smaller_hint(width: int, height: int, max_pixels: int, max_side: int | None) -> str:
    """What to do with a picture over the limit: the size to scale it down to (its own
    proportions kept), in an image editor."""
    if max_side is not None:
        return (f"Scale it down in an image editor (at most {max_side:,} pixels a side is enough: larger "
                f"pictures are scaled down to that), then choose it again.")
    if width and height:
        scale = math.sqrt(max_pixels / (width * height))
        return (f"Scale it down in an image editor, to {math.floor(width * scale):,} x "
                f"{math.floor(height * scale):,} pixels or less, then choose it again.")
    return f"Scale it down in an image editor, to {max_pixels / 1e6:.1f} megapixels or less, then choose it again."


def _eight_bit(image: Image.Image) -> Image.Image:
    """``image`` as RGBA when it has any transparency (an alpha channel, a palette's or a
    single transparent colour), else as RGB; 16-bit greyscale keeps its top 8 bits (Pillow's
    own conversion clips every value over 255 to white)."""
    if image.mode in ("I", "F") or image.mode.startswith("I;16"):
        values = np.asarray(image)
        grey = Image.fromarray((np.clip(values, 0, 65535).astype(np.uint32) >> 8).astype(np.uint8))
        transparent = image.info.get("transparency")
        if isinstance(transparent, int):
            grey.putalpha(Image.fromarray(np.where(values == transparent, 0, 255).astype(np.uint8)))
            return grey.convert("RGBA")
        return grey.convert("RGB")
    if image.has_transparency_data:
        return image.convert("RGBA")
    return image.convert("RGB")


def _on_background(picture: Image.Image) -> Image.Image:
    """An RGBA ``picture`` laid on :data:`BACKGROUND`; an RGB one as it is."""
    if picture.mode != "RGBA":
        return picture
    flat = Image.new("RGB", picture.size, BACKGROUND)
    flat.paste(picture.convert("RGB"), mask=picture.getchannel("A"))
    return flat
