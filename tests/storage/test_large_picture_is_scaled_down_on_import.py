"""A 9,000 x 9,000 scan was refused as over "the limit of 67.1 megapixels", although the
import scales large pictures down anyway, and the message didn't say what to do. Pictures
Pillow opens safely (up to its own 89.5-megapixel limit against decompression bombs) are now
scaled down to 4,096 pixels a side; a JPEG is decoded at the fraction of its size that fits,
so a 108-megapixel phone photo comes in too. One over the limit is refused with a message
that names the file, its size and the limit, and says what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from studio.storage import Project
from studio.storage.media_import import MAX_IMAGE_SIDE, ImageImportError, import_image


def _stored(project: Project, rel: str) -> Image.Image:
    with Image.open(project.resolve(rel)) as stored:
        stored.load()
        return stored


def test_a_nine_thousand_pixel_scan_is_imported_scaled_down(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "town-scan.png"
    Image.new("L", (9000, 9000), 70).save(source, format="PNG")
    stored = _stored(project, import_image(project, source, "locations"))
    assert stored.size == (MAX_IMAGE_SIDE, MAX_IMAGE_SIDE)
    assert stored.convert("RGB").getpixel((2000, 2000)) == (70, 70, 70)


def test_a_phone_photo_over_the_pixel_limit_is_imported_scaled_down(project: Project, tmp_path: Path) -> None:
    """12,000 x 9,000 (108 megapixels, over the limit) decodes at half size: 27 megapixels."""
    source = tmp_path / "photo.jpg"
    Image.new("L", (12000, 9000), 180).save(source, format="JPEG", quality=80)
    stored = _stored(project, import_image(project, source, "locations"))
    assert stored.size == (MAX_IMAGE_SIDE, 3072)
    assert abs(stored.convert("L").getpixel((100, 100)) - 180) <= 2


def _imported_files(project: Project) -> list[Path]:
    return [p for p in (project.path / "media").rglob("*") if p.is_file()]


def test_a_picture_over_the_limit_is_refused_saying_what_to_do(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "huge.png"
    Image.new("1", (10000, 10000), 1).save(source, format="PNG")  # 100 megapixels, a few KB
    with pytest.raises(ImageImportError) as refused:
        import_image(project, source, "locations")
    message, hint = refused.value.message, refused.value.hint
    assert "huge.png" in message and "10,000 x 10,000 pixels" in message, message
    assert "the limit is 89.5 megapixels" in message, message
    assert "Scale it down in an image editor" in hint and "4,096 pixels a side" in hint, hint
    assert _imported_files(project) == []


def test_a_picture_far_over_the_limit_is_refused_before_it_is_decoded(project: Project, tmp_path: Path) -> None:
    """Over twice the limit Pillow refuses the file itself; the message still says what to do."""
    source = tmp_path / "bomb.png"
    Image.new("1", (20000, 20000), 0).save(source, format="PNG")
    with pytest.raises(ImageImportError) as refused:
        import_image(project, source, "locations")
    assert "bomb.png declares 400,000,000 pixels; the limit is 89.5 megapixels" in refused.value.message
    assert "Scale it down in an image editor" in refused.value.hint
    assert _imported_files(project) == []
