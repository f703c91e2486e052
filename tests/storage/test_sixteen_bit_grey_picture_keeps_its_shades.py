"""A 16-bit greyscale PNG (what scanners and some drawing programs save) was stored pure
white: every 16-bit value over 255 was clipped instead of scaled. It now keeps its shades,
and its transparent colour, if it has one, lies on white. Other pictures from the wild (a
CMYK JPEG, a PNG named .jpg, an animated WebP) keep their colours too, and a file that is no
picture is refused saying what to choose instead."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.storage import Project
from studio.storage.media_import import ImageImportError, import_image


def _stored_rgb(project: Project, rel: str) -> Image.Image:
    with Image.open(project.resolve(rel)) as stored:
        return stored.convert("RGB")


def test_a_sixteen_bit_grey_png_keeps_its_shades(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "scan.png"
    shades = np.zeros((20, 40), dtype=np.uint16)
    shades[:, 20:] = 40000  # 61 % grey on the right, black on the left
    Image.fromarray(shades).save(source, format="PNG")
    with Image.open(source) as written:
        assert written.mode.startswith("I")  # really 16 bits a pixel
    stored = _stored_rgb(project, import_image(project, source, "locations"))
    assert stored.getpixel((5, 5)) == (0, 0, 0)
    assert stored.getpixel((30, 5)) == (156, 156, 156)  # 40000 / 65535 of white, not white


def test_a_sixteen_bit_grey_png_with_a_transparent_shade_lies_on_white(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "lineart.png"
    shades = np.zeros((20, 40), dtype=np.uint16)
    shades[:, 20:] = 1000
    Image.fromarray(shades).save(source, format="PNG", transparency=0)
    stored = _stored_rgb(project, import_image(project, source, "locations"))
    assert stored.getpixel((5, 5)) == (255, 255, 255)  # the transparent shade
    assert stored.getpixel((30, 5)) == (3, 3, 3)


def _cmyk_jpeg(path: Path) -> None:
    Image.new("CMYK", (32, 32), (0, 255, 255, 0)).save(path, format="JPEG", quality=95)


def _png_named_jpg(path: Path) -> None:
    Image.new("RGB", (32, 32), (220, 20, 20)).save(path, format="PNG")


def _animated_webp(path: Path) -> None:
    first, second = Image.new("RGB", (32, 32), (220, 20, 20)), Image.new("RGB", (32, 32), (20, 20, 220))
    first.save(path, format="WEBP", save_all=True, append_images=[second], duration=100, lossless=True)


@pytest.mark.parametrize(("name", "make"), [("print.jpg", _cmyk_jpeg), ("really-a-png.jpg", _png_named_jpg),
                                            ("wave.webp", _animated_webp)])
def test_pictures_from_the_wild_keep_their_red(project: Project, tmp_path: Path, name: str,
                                               make: Callable[[Path], None]) -> None:
    source = tmp_path / name
    make(source)
    red, green, blue = _stored_rgb(project, import_image(project, source, "locations")).getpixel((16, 16))
    assert red > 200 and green < 60 and blue < 60, (red, green, blue)


def test_a_file_that_is_no_picture_says_what_to_choose(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "notes.png"
    source.write_text("not a picture")
    with pytest.raises(ImageImportError) as refused:
        import_image(project, source, "locations")
    assert "notes.png is not a readable image" in refused.value.message
    assert "PNG, JPEG, WebP or BMP" in refused.value.hint
