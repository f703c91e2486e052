"""Art is often drawn on a transparent background. Imported as a location's picture (a
character's reference views go on grey, as CustomX expects: test_qa_reference_views_on_grey),
such a picture was stored on black: its alpha channel was dropped, and the colour under the
transparent pixels (black, for most drawing programs) showed. The transparent parts are now
laid on white, half-transparent ones blended, for every kind of transparency a PNG or WebP can
carry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from studio.storage import Project
from studio.storage.media_import import import_image

FIGURE = (200, 30, 40)


def _rgba_png(path: Path) -> None:
    """A figure in the middle of a fully transparent (0, 0, 0, 0) 40 x 40 canvas, with a
    half-transparent stripe at the bottom."""
    art = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    art.paste((*FIGURE, 255), (10, 10, 30, 30))
    art.paste((0, 0, 0, 128), (0, 34, 40, 40))
    art.save(path, format="PNG")


def _rgba_webp(path: Path) -> None:
    art = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    art.paste((*FIGURE, 255), (10, 10, 30, 30))
    art.save(path, format="WEBP", lossless=True)


def _palette_png(path: Path) -> None:
    """Palette index 0 (black) is the transparent colour: the PNG's tRNS chunk."""
    art = Image.new("P", (40, 40), 0)
    art.putpalette([0, 0, 0, *FIGURE])
    art.paste(1, (10, 10, 30, 30))
    art.save(path, format="PNG", transparency=0)


def _grey_alpha_png(path: Path) -> None:
    art = Image.new("LA", (40, 40), (0, 0))
    art.paste((90, 255), (10, 10, 30, 30))
    art.save(path, format="PNG")


def _stored(project: Project, rel: str) -> Image.Image:
    with Image.open(project.resolve(rel)) as stored:
        return stored.convert("RGBA")


@pytest.mark.parametrize("make", [_rgba_png, _rgba_webp, _palette_png],
                         ids=["rgba-png", "rgba-webp", "palette-png"])
def test_a_transparent_background_is_stored_white(project: Project, tmp_path: Path,
                                                  make: Callable[[Path], None]) -> None:
    source = tmp_path / "mei-front.png"
    make(source)
    stored = _stored(project, import_image(project, source, "locations"))
    assert stored.size == (40, 40)
    assert stored.getpixel((2, 2)) == (255, 255, 255, 255)  # the background: white, opaque
    assert stored.getpixel((20, 20)) == (*FIGURE, 255)  # the figure: as drawn


def test_half_transparent_pixels_are_blended_with_white(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "shadow.png"
    _rgba_png(source)
    stored = _stored(project, import_image(project, source, "locations"))
    red, green, blue, _ = stored.getpixel((20, 37))  # black at half opacity over white: mid grey
    assert red == green == blue and 120 <= red <= 135, stored.getpixel((20, 37))


def test_a_grey_picture_with_alpha_is_stored_on_white(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "sketch.png"
    _grey_alpha_png(source)
    stored = _stored(project, import_image(project, source, "locations"))
    assert stored.getpixel((2, 2)) == (255, 255, 255, 255)
    assert stored.getpixel((20, 20)) == (90, 90, 90, 255)


def test_a_large_transparent_picture_is_scaled_down_without_dark_edges(project: Project, tmp_path: Path) -> None:
    """Scaling averages neighbouring pixels: averaged before the transparency was laid on
    white, the invisible black under it would darken the figure's edge."""
    source = tmp_path / "poster.png"
    art = Image.new("RGBA", (8192, 64), (0, 0, 0, 0))
    art.paste((255, 255, 255, 255), (0, 0, 4096, 64))
    art.save(source, format="PNG")
    stored = _stored(project, import_image(project, source, "locations"))
    assert stored.size == (4096, 32)
    assert min(stored.getpixel((x, 16))[0] for x in range(4096)) == 255  # white throughout, no grey seam
