"""One friend is drawn with the character; the others named are said not to be drawn.

"Qiqi waves at Yuzu and Taro" drew Qiqi and Yuzu and left Taro out without a word.
"""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import predict


@pytest.mark.parametrize(("text", "drawn", "left_out"), [
    ("Qiqi waves at Yuzu and Taro", "Yuzu", ["Taro"]),
    ("Aoi dances with Taro, Yuzu and Sosuke in the park", "Taro", ["Yuzu", "Sosuke"]),
])
def test_the_friends_not_drawn_are_named_in_a_warning(engine: SketchEngine, text: str, drawn: str,
                                                      left_out: list[str]) -> None:
    pred = predict(engine, text)
    assert pred.conditioning["companion"] == drawn
    for name in left_out:
        assert any(w.startswith(f"'{name}' is not drawn") for w in pred.warnings), (name, pred.warnings)
    assert not any(w.startswith(f"'{drawn}'") for w in pred.warnings)


@pytest.mark.parametrize("text", ["Qiqi waves at Qiqi", "Qiqi talks with Yuzu about Taro",
                                  "Qiqi waits for Taro with Yuzu"])
def test_no_warning_for_the_character_itself_nor_someone_absent(engine: SketchEngine, text: str) -> None:
    pred = predict(engine, text)
    assert not any("is not drawn" in w for w in pred.warnings), pred.warnings
