"""Free text naming two characters draws the one it names first ("Aoi waves at Qiqi" draws
Aoi), the acting character the story tree reads for the turn's state."""

from __future__ import annotations

import pytest

from studio.core.model import CastMember

from .sketch_helpers import predict


@pytest.mark.parametrize(("text", "character"), [
    ("Aoi waves at Qiqi", "Aoi"),
    ("Qiqi waves at Aoi", "Qiqi"),
    ("Yuzu hugs Taro in the park", "Yuzu"),
    ("Sosuke runs after Qiqi", "Sosuke"),
    ("qiqi runs", "Qiqi"),
])
def test_default_cast_first_named_acts(engine, text: str, character: str) -> None:  # type: ignore[no-untyped-def]
    assert predict(engine, text).conditioning["character"] == character


def test_project_cast_first_named_acts(engine) -> None:  # type: ignore[no-untyped-def]
    cast = (CastMember(id="k", name="Kai"), CastMember(id="m", name="Mina Sato"))
    assert predict(engine, "Mina Sato talks to Kai", cast=cast).conditioning["character"] == "Mina Sato"
    assert predict(engine, "Kai talks to Mina Sato", cast=cast).conditioning["character"] == "Kai"
    # the project's cast still comes before the built-in characters
    assert predict(engine, "Qiqi talks to Kai", cast=cast).conditioning["character"] == "Kai"
