"""Follow-ups of the sketch's reading: a noun followed by "of" ("at the speed of light") and a
group ("in the choir") are no unknown place; "around the neighbourhood" is a place phrase as
"through the neighbourhood" is; and "After X, Y" written in Japanese, Chinese or Korean shows
Y, the main clause's action, as it does in English."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import main_clause_first, read_turn

from ..sketch_helpers import SMALL, predict

LEFT_OUT = "several motions named, shown as '{}'; left out '{}' (a clip shows one motion)"


@pytest.mark.parametrize("text", [
    "Qiqi runs at the speed of light", "Qiqi sings in the choir", "Qiqi waits at the end of the line",
    "Qiqi stands in the middle of nowhere", "Qiqi plays in the band",
])
def test_no_false_unknown_place(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.unknown_places == ()
    take = predict(SketchEngine(), text, seed=4, settings=SMALL)
    assert not any("no place of this world" in w for w in take.warnings), take.warnings


def test_an_unknown_place_before_of_something_else_is_still_said() -> None:
    take = predict(SketchEngine(), "Qiqi runs in the theatre", seed=4, settings=SMALL)
    assert "'theatre' is no place of this world, shown as 'town'" in take.warnings


@pytest.mark.parametrize("preposition", ["around", "through"])
def test_around_the_neighbourhood_is_the_town(preposition: str) -> None:
    text = f"Qiqi walks {preposition} the neighbourhood"
    reading = read_turn(parse_instruction(text))
    assert reading.location == "town"
    assert "'neighbourhood' unknown, shown as 'town'" in reading.warnings
    assert predict(SketchEngine(), text, seed=4, settings=SMALL).conditioning["scene"] == "town"


def test_around_a_known_place_is_it() -> None:
    assert read_turn(parse_instruction("Qiqi walks around the park")).location == "park"


@pytest.mark.parametrize("text", [
    "Qiqiは食べた後で走る", "Qiqiは食べたあとで走る", "吃完饭后，Qiqi跑步", "吃完饭以后Qiqi跑步",
    "먹은 후에 Qiqi는 달린다",
    "After eating, Qiqi runs",
])
def test_after_x_y_shows_y_in_every_language(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion.name == "run"
    assert LEFT_OUT.format("run", "eat") in reading.warnings


@pytest.mark.parametrize("text", ["跑到车站然后挥手", "역까지 달린 다음 손을 흔든다", "駅まで走って、手を振る"])
def test_then_still_shows_the_first(text: str) -> None:
    assert read_turn(parse_instruction(text)).motion.name == "run"


@pytest.mark.parametrize(("text", "read"), [
    ("eat 후에 qiqi run", "qiqi run , after eat"),
    ("eat 完饭后,qiqi run", "qiqi run , after eat 完饭"),
    ("run 然后 wave", "run 然后 wave"),
    ("qiqi runs", "qiqi runs"),
])
def test_main_clause_first(text: str, read: str) -> None:
    assert main_clause_first(text) == read
