"""The sketch engine draws a character's head and shoulders in its look and a built-in
place by day, for the window's Cast & world lists."""

from __future__ import annotations

import numpy as np
import pytest

from studio.engines.sketch.defaults import load_default_cast, load_default_world
from studio.engines.sketch.look import parse_color
from studio.engines.sketch.pictures import PLACE_SIZE, PORTRAIT_SIDE, SketchPictures


@pytest.fixture(scope="module")
def pictures() -> SketchPictures:
    return SketchPictures()


def _share_near(picture: np.ndarray, rgb: tuple[int, int, int], tolerance: int = 40) -> float:
    distance = np.abs(picture.astype(np.int16) - np.array(rgb, dtype=np.int16)).sum(axis=2)
    return float((distance <= tolerance).mean())


def test_each_default_character_is_drawn_in_its_own_hair_colour(pictures: SketchPictures) -> None:
    cast = load_default_cast()
    drawn = {m.name: pictures.character(m.name, m.params) for m in cast}
    for member in cast:
        picture = drawn[member.name]
        assert picture is not None and picture.shape == (PORTRAIT_SIDE, PORTRAIT_SIDE, 3)
        hair = parse_color(member.params["hair_color"])
        assert hair is not None
        own = _share_near(picture, hair)
        assert own > 0.04, f"{member.name}'s hair colour fills {own:.3f} of the picture"
        # the head fills the picture: its top half is mostly hair, face and hat, not ground
        others = [m for m in cast if parse_color(m.params["hair_color"]) != hair]
        assert all(_share_near(picture, parse_color(o.params["hair_color"]) or (0, 0, 0)) < own for o in others)


def test_a_changed_look_is_a_new_picture_and_the_same_look_is_kept(pictures: SketchPictures) -> None:
    red = pictures.character("Hana", {"hair_color": "#e02020"})
    blue = pictures.character("Hana", {"hair_color": "#2040e0"})
    assert red is not None and blue is not None
    assert _share_near(red, (224, 32, 32)) > 0.04 > _share_near(blue, (224, 32, 32))
    assert pictures.character("Hana", {"hair_color": "#e02020"}) is red  # drawn once
    assert pictures.character("Someone new", {}) is not None  # a look made from the name
    assert pictures.character("  ", {}) is None


def test_every_built_in_place_is_drawn_and_others_are_not(pictures: SketchPictures) -> None:
    pictures_by_place = {}
    for location in load_default_world():
        picture = pictures.place(location.name)
        assert picture is not None and picture.shape == (*PLACE_SIZE, 3), location.name
        assert picture.reshape(-1, 3).std(axis=0).sum() > 20, f"{location.name} is a flat colour"
        pictures_by_place[location.name] = picture
    beach, library = pictures_by_place["beach"], pictures_by_place["library"]
    assert not np.array_equal(beach, library)
    assert pictures.place("Beach") is pictures.place("beach")
    assert pictures.place("my porch") is None
