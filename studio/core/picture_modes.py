"""A picture of any of Pillow's modes as 8-bit RGB or RGBA, for the code that stores pictures
(``studio.storage.images``) and for the engines that read them as given (CustomX's reference
views): one rule for both, so a view looks the same to the engine whichever way it came."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image


def eight_bit(image: Image) -> Image:
    """``image`` as 8-bit RGBA when it has any transparency (an alpha channel, a palette's or
    one transparent colour), else as 8-bit RGB.

    A 16-bit (or 32-bit) greyscale picture keeps its top 8 bits: Pillow's own conversion clips
    every value over 255, which turns a 16-bit scan or render white."""
    import numpy as np
    from PIL import Image as PILImage

    if image.mode in ("I", "F") or image.mode.startswith("I;16"):
        values = np.asarray(image)
        grey = PILImage.fromarray((np.clip(values, 0, 65535).astype(np.uint32) >> 8).astype(np.uint8))
        transparent = image.info.get("transparency")
        if isinstance(transparent, int):
            grey.putalpha(PILImage.fromarray(np.where(values == transparent, 0, 255).astype(np.uint8)))
            return grey.convert("RGBA")
        return grey.convert("RGB")
    if image.has_transparency_data:
        return image.convert("RGBA")
    return image.convert("RGB")
