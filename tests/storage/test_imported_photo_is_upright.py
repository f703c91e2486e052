"""A phone's portrait photo is stored sideways with an EXIF orientation tag that every viewer
applies; imported as a location or a character's view it was kept sideways. It is turned as
its tag says when it is opened."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from studio.storage import Project
from studio.storage.media_import import import_image

ROTATE_90_CLOCKWISE = 6  # EXIF Orientation: the picture is to be turned 90 degrees clockwise


def _sideways_photo(path: Path) -> None:
    """A 60 x 30 JPEG (landscape as stored) whose left half is red, tagged to be shown turned a
    quarter clockwise: upright it is 30 x 60, its red half on top."""
    picture = Image.new("RGB", (60, 30), (0, 0, 255))
    picture.paste((255, 0, 0), (0, 0, 30, 30))
    exif = Image.Exif()
    exif[0x0112] = ROTATE_90_CLOCKWISE
    picture.save(path, format="JPEG", exif=exif.tobytes(), quality=95)


def test_an_imported_photo_is_stored_upright(project: Project, tmp_path: Path) -> None:
    source = tmp_path / "portrait.jpg"
    _sideways_photo(source)
    rel = import_image(project, source, "locations")
    with Image.open(project.resolve(rel)) as stored:
        assert stored.size == (30, 60)
        top, bottom = stored.convert("RGB").getpixel((15, 5)), stored.convert("RGB").getpixel((15, 55))
    assert top[0] > 200 and top[2] < 60, top  # red above
    assert bottom[2] > 200 and bottom[0] < 60, bottom
