"""A cast member named only inside quoted speech is talked to or about, not drawn beside the
character: 'Qiqi says "Yuzu is late"' drew Yuzu facing Qiqi. Named outside the quotes, they
still are ('Qiqi says "hi" to Yuzu')."""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import predict


@pytest.mark.parametrize("text", [
    'Qiqi says "Yuzu is late" in the park',
    "Qiqi shouts 'Taro, come back!' at the beach",
    'Aoi whispers "I miss Sosuke"',
    'Qiqi: "Yuzu and Taro are coming"',
])
def test_a_name_said_in_quotes_is_nobody_drawn(engine: SketchEngine, text: str) -> None:
    prediction = predict(engine, text)
    assert prediction.conditioning["companion"] in ("", None), text
    assert not any("is not drawn" in warning for warning in prediction.warnings), text


@pytest.mark.parametrize(("text", "friend"), [
    ('Qiqi says "hi" to Yuzu', "Yuzu"),
    ('Qiqi talks with Taro: "Yuzu is late"', "Taro"),
    ('"Let\'s go," Aoi tells Sosuke', "Sosuke"),
])
def test_a_name_outside_the_quotes_is_still_drawn(engine: SketchEngine, text: str, friend: str) -> None:
    assert predict(engine, text).conditioning["companion"] == friend, text
