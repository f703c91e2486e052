"""A hike, a trek or a ramble is a walk, and lazing about is the idle, in the four languages:
"Qiqi hikes up the mountain" was idle with "no motion found", and so were "キキが海でのんびり
する" (のんびり was read as an adverb alone), くつろぐ, 放松 and 빈둥거리다. のんびり before a
motion stays how it is done (のんびり歩く walks leisurely)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_turn

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize("text", [
    "Qiqi hikes up the mountain",
    "Qiqi hiked through the forest",
    "Qiqi is hiking in the countryside",
    "Qiqi goes hiking",
    "Qiqi treks across the field",
    "Qiqi rambles along the river",
    "Qiqi saunters down the street",
])
def test_a_hike_is_a_walk(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name == "walk"
    assert not any("motion" in warning or "unknown" in warning for warning in reading.warnings)


def test_a_hike_up_the_mountain_is_drawn_walking_there() -> None:
    take = predict(SketchEngine(), "Qiqi hikes up the mountain", settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("walk", "mountain")
    assert not take.warnings


@pytest.mark.parametrize("text", [
    "Qiqi lazes on the beach",
    "Qiqi unwinds at home",
    "キキが海でのんびりする",
    "キキが部屋でのんびりしている",
    "キキは家でくつろぐ",
    "キキが部屋でくつろいでいる",
    "キキは家でゴロゴロする",
    "琪琪在海边放松",
    "琪琪在家休息",
    "키키가 집에서 빈둥거린다",
    "키키가 집에서 빈둥댄다",
])
def test_lazing_about_is_the_idle_with_no_warning(text: str) -> None:
    reading = read_turn(parse_instruction(text), (), ("키키", "キキ", "琪琪"))
    assert reading.motion.name == "idle"
    assert not any("no motion" in warning for warning in reading.warnings)


def test_japanese_relaxing_by_the_sea_is_drawn_idle_at_the_sea() -> None:
    take = predict(SketchEngine(), "Character: Qiqi; キキが海でのんびりする", settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["scene"]) == ("idle", "sea")
    assert not any("motion" in warning for warning in take.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("キキがのんびり歩く", "walk"),
    ("キキがのんびりと歩く", "walk"),
    ("Qiqi walks leisurely", "walk"),
    ("Qiqi rests on the bed", "lie down"),
])
def test_a_leisurely_motion_stays_that_motion(text: str, motion: str) -> None:
    reading = read_turn(parse_instruction(text), (), ("キキ",))
    assert reading.motion.name == motion
    assert not any("several motions" in warning for warning in reading.warnings)
