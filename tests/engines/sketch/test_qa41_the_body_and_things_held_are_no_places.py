"""A part of the body, or a thing worn or held, after "in her" is no place: "puts candy in her
mouth" was said to name 'mouth', no place of this world."""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize("text", [
    "Qiqi eats with a spoon in her mouth", "Qiqi puts candy in her mouth", "Qiqi walks with her hands in her pockets",
    "Qiqi runs with the wind in her hair", "Qiqi sings with a flower in her hair",
    "Qiqi waits with a letter in her backpack", "Qiqi stands with her face in her palms",
])
def test_no_place_is_said_for_the_body(text: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL)
    assert not any("no place of this world" in w for w in take.warnings), take.warnings


def test_a_place_is_still_said() -> None:
    take = predict(SketchEngine(), "Qiqi eats candy in the theatre", settings=SMALL)
    assert any("'theatre' is no place of this world" in w for w in take.warnings)
