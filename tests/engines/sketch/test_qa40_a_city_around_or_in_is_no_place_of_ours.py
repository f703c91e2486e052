"""A real city written as the place, after "around" as after "in" and "to", is said to be no
place of this world: "Qiqi wanders around Tokyo" was drawn in the town without a word. The
cast's names stay names ("Qiqi runs around Yuzu" says nothing)."""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "city"), [
    ("Qiqi wanders around Tokyo", "Tokyo"),
    ("Qiqi runs around Paris", "Paris"),
    ("Qiqi runs in Tokyo", "Tokyo"),
    ("Qiqi walks to Osaka", "Osaka"),
])
def test_a_city_is_said_to_be_no_place_of_this_world(text: str, city: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL)
    assert f"'{city}' is no place of this world, shown as 'town'" in take.warnings
    assert take.conditioning["character"] == "Qiqi"


@pytest.mark.parametrize("text", [
    "Qiqi runs around Yuzu",
    "Qiqi dances around Aoi",
    "Qiqi walks around in May",
    "Qiqi looks around",
])
def test_a_cast_member_or_a_date_around_is_no_place(text: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL)
    assert not any("no place of this world" in warning for warning in take.warnings)
