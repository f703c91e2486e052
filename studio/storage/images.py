"""Opening images from project files or from users without trusting them.

A PNG of a few dozen kilobytes can declare 20000 x 20000 pixels and take gigabytes to
decode. :func:`open_image` reads only the header first and refuses an image whose file
or pixel count is over the limit, with a message that names the file, its size, the limit
and what to do; Pillow's own decompression-bomb warning never reaches the user.

What comes back is always plain 8-bit RGB as a viewer shows the picture: transparent parts
(character art is mostly drawn on a transparent background) lie on white (or on the
background asked for: a character's reference views lie on :data:`VIEW_BACKGROUND`), not on
the black that dropping the alpha channel leaves; a 16-bit greyscale PNG keeps its shades.

Colours come back in sRGB, the space the studio shows and exports pictures in: a picture
that embeds another ICC colour profile (Display P3 from a phone, Adobe RGB, a grey profile,
a print shop's CMYK profile) has its pixels converted from that profile, so it looks as it
does in an image viewer rather than washed out, oversaturated or with inverted inks.
A picture tagged sRGB, or with no profile, keeps its pixel values. A profile that is damaged,
unreadable or does not fit the picture's colours is ignored: the picture is converted as if
it had none, and still opens.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from studio.core.picture_modes import eight_bit
from studio.storage.media import MediaError

MAX_IMAGE_PIXELS = 4096 * 4096
"""Largest image decoded (16.8 megapixels; posters are the size of a clip frame)."""
MAX_IMAGE_FILE_BYTES = 50 * 1024 * 1024
BACKGROUND = (255, 255, 255)
"""What a transparent part of a picture is laid on."""
VIEW_BACKGROUND = (128, 128, 128)
"""What a transparent part of a character's reference view is laid on: the grey the CustomX
release lays its views on (:mod:`studio.engines.customx.media` composites an RGBA view on
grey 128 and fits it into the frame on the same grey), so that a view copied into the project
reaches the engine as the release would have prepared it from the original picture."""


def open_image(path: Path, max_pixels: int = MAX_IMAGE_PIXELS, max_bytes: int = MAX_IMAGE_FILE_BYTES,
               what: str = "image", max_side: int | None = None,
               background: tuple[int, int, int] = BACKGROUND) -> Image.Image:
    """``path`` decoded as RGB, after its size and pixel count were checked from its header,
    turned as its EXIF orientation says, its transparent parts on ``background`` (white unless
    told); with ``max_side``, scaled down to fit ``max_side`` x ``max_side``.

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
                picture = _displayed(upright if upright is not None else image, image.info.get("icc_profile"))
                if max_side is not None and max(picture.size) > max_side:
                    picture.thumbnail((max_side, max_side))  # RGBA is scaled premultiplied: no dark fringes
                return _on_background(picture, background)
        except Image.DecompressionBombError as error:  # Pillow's own, far larger, limit: at open
            declared = re.search(r"\((\d+) pixels\)", str(error))
            pixels = f"{int(declared[1]):,} pixels" if declared else "too many pixels"
            raise MediaError(f"The {what} {path.name} declares {pixels}; the limit is "
                             f"{max_pixels / 1e6:.1f} megapixels.",
                             hint=_smaller_hint(0, 0, max_pixels, max_side)) from None
        except UnidentifiedImageError:
            raise MediaError(f"The {what} {path.name} is not a readable image: what {path} holds is in no picture "
                             f"format the studio reads (PNG, JPEG, WebP, BMP, GIF){_as_what(path)}.",
                             hint="Choose a PNG, JPEG, WebP or BMP picture, or save this one again as PNG "
                                  "in an image editor.") from None
        except (OSError, ValueError, SyntaxError) as error:
            raise MediaError(f"The {what} {path.name} is not a readable image: {error}.",
                             hint="Choose a PNG, JPEG, WebP or BMP picture, or save this one again as PNG "
                                  "in an image editor.") from None


_NOT_PICTURES = {".mp4": "a video", ".webm": "a video", ".mov": "a video", ".mkv": "a video", ".avi": "a video",
                 ".m4v": "a video", ".txt": "text", ".pdf": "a PDF document", ".psd": "a Photoshop document"}


def _as_what(path: Path) -> str:
    """What else ``path`` may be, from its name: a video or a document says so; a name ending in a
    picture's suffix says it was renamed or damaged."""
    kind = _NOT_PICTURES.get(path.suffix.lower())
    if kind is None:
        return ", whatever its name says: it may be another kind of file renamed, or damaged"
    return f": by its name it is {kind}, not a picture (export a picture from it first)"


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


def _displayed(image: Image.Image, icc: object) -> Image.Image:
    """``image`` as :func:`~studio.core.picture_modes.eight_bit` gives it, its colours converted to sRGB from the ICC
    profile ``icc`` (the bytes the file embeds) when it has one that is not sRGB."""
    picture = eight_bit(image)
    if not isinstance(icc, bytes) or not icc:
        return picture
    converted = _in_srgb(image, picture, icc)
    return converted if converted is not None else picture


_RGB_MODES = frozenset({"RGB", "RGBA", "RGBX", "RGBa", "P", "PA"})
_GREY_MODES = frozenset({"L", "LA", "La", "I", "F"})


def _in_srgb(source: Image.Image, picture: Image.Image, icc: bytes) -> Image.Image | None:
    """``picture`` (``source`` made 8-bit RGB or RGBA) with its colours converted from the
    profile ``icc`` to sRGB, its alpha channel kept; None when there is nothing to convert
    (an sRGB profile) or the profile can't be used (damaged, or for other colours than the
    picture's, such as an RGB profile on a grey picture): the plain conversion then stands."""
    # ImageCms loads the Little CMS library: only pictures that carry a profile pay for it
    from PIL import ImageCms

    try:
        profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        space = profile.profile.xcolor_space.strip()
        if space == "RGB" and "sRGB" in (profile.profile.profile_description or ""):
            return None  # already what the studio shows: converting would only add rounding
        colours = _profile_input(source, picture, space)
        if colours is None:
            return None
        # Relative colorimetric keeps every colour that sRGB can show exactly as the profile
        # defines it and clips only those outside sRGB, as image viewers and browsers do;
        # perceptual would shift in-gamut colours too, and matrix profiles (P3, Adobe RGB)
        # have no perceptual tables anyway. Black point compensation maps a print profile's
        # deepest black (ink on paper is never pure black) to sRGB black, as Photoshop does.
        transform = ImageCms.buildTransform(
            profile, ImageCms.createProfile("sRGB"), colours.mode, "RGB",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        converted = ImageCms.applyTransform(colours, transform)
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError, AttributeError):
        return None
    if converted is None:
        return None
    if picture.mode == "RGBA":
        converted.putalpha(picture.getchannel("A"))
    return converted


def _profile_input(source: Image.Image, picture: Image.Image, space: str) -> Image.Image | None:
    """The pixels a profile of colour ``space`` ("RGB", "GRAY", "CMYK") describes, in the
    8-bit mode Little CMS takes for it, without alpha; None when ``source``'s colours are of
    another kind than the profile's."""
    if space == "RGB" and source.mode in _RGB_MODES:
        return picture.convert("RGB")
    if space == "GRAY" and (source.mode in _GREY_MODES or source.mode.startswith("I;16")):
        return picture.getchannel("R")  # grey made RGB has three equal channels
    if space == "CMYK" and source.mode == "CMYK":
        return source  # the inks as Pillow decoded them (Adobe's inverted CMYK already undone)
    return None


def _on_background(picture: Image.Image, background: tuple[int, int, int] = BACKGROUND) -> Image.Image:
    """An RGBA ``picture`` laid on ``background``; an RGB one as it is."""
    if picture.mode != "RGBA":
        return picture
    flat = Image.new("RGB", picture.size, background)
    flat.paste(picture.convert("RGB"), mask=picture.getchannel("A"))
    return flat
