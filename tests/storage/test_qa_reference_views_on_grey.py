"""A character's reference view with transparency is stored on the grey (128, 128, 128) the
CustomX release lays its views on, so the engine sees what it would have made of the original
picture; every other imported picture keeps white, and files already stored are left alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from studio.core import AddCastMember, CastMember
from studio.engines.customx import media as customx_media
from studio.storage import Project
from studio.storage.media_import import import_image, import_images

FIGURE = (200, 30, 40)


def _character_art(path: Path) -> None:
    """A figure on a transparent canvas, with a half-transparent black shadow at the bottom."""
    art = Image.new("RGBA", (48, 40), (0, 0, 0, 0))
    art.paste((*FIGURE, 255), (12, 8, 36, 30))
    art.paste((0, 0, 0, 128), (0, 34, 48, 40))
    art.save(path, format="PNG")


def _stored(project: Project, rel: str) -> Image.Image:
    with Image.open(project.resolve(rel)) as stored:
        stored.load()
        return stored


def test_reference_view_is_laid_on_the_release_grey(tmp_path: Path) -> None:
    source = tmp_path / "aoi-front.png"
    _character_art(source)
    with Project.create(tmp_path / "story") as project:
        [rel] = import_images(project, [source])
        stored = _stored(project, rel)
    assert stored.mode == "RGB"
    assert stored.getpixel((2, 2)) == (128, 128, 128)
    assert stored.getpixel((24, 20)) == FIGURE
    red, green, blue = stored.getpixel((24, 37))  # black at half opacity over grey 128
    assert red == green == blue and 60 <= red <= 68


def test_stored_view_reaches_customx_as_the_original_would(tmp_path: Path) -> None:
    source = tmp_path / "aoi-left.png"
    _character_art(source)
    with Project.create(tmp_path / "story") as project:
        rel = import_image(project, source, "characters")
        from_project = customx_media.read_image(project.resolve(rel), 352, 624)
    from_original = customx_media.read_image(source, 352, 624)
    assert np.array_equal(from_project, from_original)


def test_other_pictures_keep_white(tmp_path: Path) -> None:
    source = tmp_path / "street.png"
    _character_art(source)
    with Project.create(tmp_path / "story") as project:
        stored = _stored(project, import_image(project, source, "locations"))
    assert stored.getpixel((2, 2)) == (255, 255, 255)
    assert stored.getpixel((24, 20)) == FIGURE


def test_opaque_view_keeps_its_pixels(tmp_path: Path) -> None:
    source = tmp_path / "aoi-back.png"
    picture = Image.new("RGB", (30, 20), (250, 250, 250))
    picture.paste(FIGURE, (5, 5, 15, 15))
    picture.save(source)
    with Project.create(tmp_path / "story") as project:
        stored = _stored(project, import_image(project, source, "characters"))
    assert np.array_equal(np.asarray(stored), np.asarray(picture))


def test_views_already_stored_are_not_changed(tmp_path: Path) -> None:
    """A view stored on white by an earlier version stays byte for byte what it was."""
    with Project.create(tmp_path / "story") as project:
        earlier = project.path / "media/characters/front-view-0123456789.png"
        earlier.parent.mkdir(parents=True)
        Image.new("RGB", (20, 20), (255, 255, 255)).save(earlier)
        before = earlier.read_bytes()
        project.apply(AddCastMember(CastMember(id="aoi", name="Aoi",
                                               reference_images=("media/characters/front-view-0123456789.png",))))
        source = tmp_path / "aoi-right.png"
        _character_art(source)
        import_image(project, source, "characters")
    with Project.open(tmp_path / "story.kamishibai") as project:
        assert (project.path / "media/characters/front-view-0123456789.png").read_bytes() == before
