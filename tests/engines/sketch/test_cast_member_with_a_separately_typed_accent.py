"""A turn naming a cast member with its accent typed as a separate mark ("Ame\u0301lie", as
macOS and some keyboards write it) draws that member: the sketch engine compared names by
case only, so the cast's "Amélie" was drawn with a generated look and the warning "'Amélie'
not in the cast", though the story plays the turn as hers."""

from __future__ import annotations

from studio.core.model import CastMember
from studio.engines.sketch import SketchEngine

from ..sketch_helpers import SMALL, predict

AMELIE = CastMember(id="a", name="Amélie", params={"hair_color": "#ff0000", "outfit_color": "#00ff00"})


def test_a_separately_typed_accent_names_the_cast_member() -> None:
    engine = SketchEngine()
    composed = predict(engine, "Character: Amélie; Motion: wave.", settings=SMALL, cast=(AMELIE,))
    typed_apart = predict(engine, "Character: Ame\u0301lie; Motion: wave.", settings=SMALL, cast=(AMELIE,))
    assert not any("not in the cast" in warning for warning in typed_apart.warnings), typed_apart.warnings
    assert typed_apart.conditioning["look"] == composed.conditioning["look"]


def test_another_name_is_still_a_stranger() -> None:
    other = predict(SketchEngine(), "Character: Amelia; Motion: wave.", settings=SMALL, cast=(AMELIE,))
    assert any("not in the cast" in warning for warning in other.warnings)
