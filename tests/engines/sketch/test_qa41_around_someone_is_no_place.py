"""A name after "dances around" (or "skips around", "puts her arms around") is someone the
character moves round, not a place: "Qiqi dances around Gandalf" was said to name 'Gandalf', no
place of this world. The sketch says nothing of a friend outside the cast named in free text
("dances with Gandalf"), so nothing is said of Gandalf. "Walks around London" is still a place."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction, unknown_place_names

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize("text", [
    "Qiqi dances around Gandalf", "Qiqi skips around Gandalf in circles", "Qiqi puts her arms around Gandalf",
    "Qiqi twirls around Mr Tanaka",
])
def test_around_someone_names_no_place(text: str) -> None:
    assert unknown_place_names(text) == []
    take = predict(SketchEngine(), text, settings=SMALL)
    assert not any("no place of this world" in w for w in take.warnings), take.warnings


def test_a_cast_member_danced_around_is_the_friend() -> None:
    take = predict(SketchEngine(), "Qiqi dances around Yuzu in the park", settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["companion"], take.conditioning["scene"]) == \
        ("dance", "Yuzu", "park")


@pytest.mark.parametrize(("text", "place"), [
    ("Qiqi walks around London", "London"), ("Qiqi runs around Tokyo", "Tokyo"),
])
def test_around_a_city_is_still_a_place(text: str, place: str) -> None:
    assert unknown_place_names(text) == [place]


def test_the_dance_is_read() -> None:
    assert read_instruction(parse_instruction("Qiqi dances around Gandalf")).motion.name == "dance"
