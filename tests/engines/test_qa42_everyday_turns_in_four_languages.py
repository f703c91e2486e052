"""Everyday turns as authors write them: a walk along the river (川沿い) is by the river, hiding
(隠れる, 躲) is the sneak, said with the word as written, as "hides" is, a ride on a train
(電車に乗る) is sitting, as "takes the train" is, and coming home ("comes home") is a walk home.
They were drawn in the town, idle, or idle with "no motion found"."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_turn

NAMES = ["Qiqi", "Yuzu"]


def _read(text: str):  # type: ignore[no-untyped-def]
    return read_turn(parse_instruction(text), [], NAMES)


@pytest.mark.parametrize("text", ["夕方、Yuzuは川沿いを散歩する", "Yuzu walks along the river at dusk"])
def test_along_the_river_is_by_the_river(text: str) -> None:
    reading = _read(text)
    assert (reading.motion.name, reading.location, reading.time) == ("walk", "river", "sunset")


@pytest.mark.parametrize(("text", "written"), [
    ("Yuzuは木の後ろに隠れる", "隠れる"), ("Yuzuは木の後ろに隠れている", "隠れている"), ("Qiqi躲在树后面", "躲"),
    ("Yuzu hides behind a tree", "hide"),
])
def test_hiding_is_a_sneak_said_as_written(text: str, written: str) -> None:
    reading = _read(text)
    assert (reading.motion.name, reading.location) == ("sneak", "forest")
    assert f"'{written}' unknown, shown as 'sneak'" in reading.warnings


@pytest.mark.parametrize("text", ["Yuzuは電車に乗る", "Yuzu takes the train"])
def test_a_train_ride_is_sitting(text: str) -> None:
    reading = _read(text)
    assert reading.motion.name == "sit"
    assert not any(warning.startswith("no motion found") for warning in reading.warnings)


@pytest.mark.parametrize("text", ["Qiqi comes home", "Qiqi comes home from the station at dusk", "Qiqi comes back"])
def test_coming_home_is_a_walk(text: str) -> None:
    assert _read(text).motion.name == "walk"


def test_coming_home_is_drawn_at_home() -> None:
    assert _read("Qiqi comes home from the station at dusk").location == "bedroom"
