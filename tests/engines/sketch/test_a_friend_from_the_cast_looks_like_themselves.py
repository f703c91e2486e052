"""A friend the instruction names from the cast is drawn with that cast member's own look.

"Qiqi talks with Yuzu" drew Qiqi's friend with a look made up from the take's seed, so the
Yuzu of one turn looked nothing like the Yuzu of the next. The friend's look the renderer
draws is compared with the look it draws the same member with as the main character.
"""

from __future__ import annotations

import pytest

from studio.core.model import CastMember
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning

from ..sketch_helpers import predict

MINT = CastMember(id="mint", name="Mint", params={
    "hair_color": "#22cc88", "hair_style": "spiky", "eye_color": "#aa2288", "skin_color": "#c08060",
    "outfit_color": "#ffcc00", "outfit_accent": "#0033ff", "outfit_style": "shirt", "accessory": "glasses"})
CAST = (CastMember(id="qiqi", name="Qiqi", params={"hair_color": "#2a2230", "accessory": "bow"}), MINT)


def _drawn_as_main(engine: SketchEngine, name: str) -> object:
    return ClipRenderer(plan_from_conditioning(predict(engine, f"{name} waves", cast=CAST).conditioning)).spec.look


@pytest.mark.parametrize("text", ["Qiqi talks with Mint in the park", "Character: Qiqi; Motion: hug Mint",
                                  "Qiqi meets Mint at the station"])
def test_the_friend_is_drawn_with_the_cast_members_look(engine: SketchEngine, text: str) -> None:
    for seed in range(3):
        prediction = predict(engine, text, seed=seed, cast=CAST)
        assert prediction.conditioning["character"] == "Qiqi"
        renderer = ClipRenderer(plan_from_conditioning(prediction.conditioning))
        assert renderer.companion_spec is not None, (text, "the motion has a friend")
        assert renderer.companion_spec.look == _drawn_as_main(engine, "Mint"), (text, seed)
        assert renderer.spec.look == _drawn_as_main(engine, "Qiqi"), (text, seed, "the main character is Qiqi")


def test_a_default_cast_member_as_the_friend_looks_like_themselves(engine: SketchEngine) -> None:
    prediction = predict(engine, "Qiqi talks with Yuzu")
    friend = ClipRenderer(plan_from_conditioning(prediction.conditioning)).companion_spec
    assert friend is not None
    yuzu = ClipRenderer(plan_from_conditioning(predict(engine, "Yuzu waves").conditioning)).spec.look
    assert friend.look == yuzu


def test_a_friend_nobody_named_still_gets_a_look_of_its_own(engine: SketchEngine) -> None:
    """No cast member named besides the talker: the friend is made up, and is not the talker."""
    prediction = predict(engine, "Qiqi talks in the park", cast=CAST)
    renderer = ClipRenderer(plan_from_conditioning(prediction.conditioning))
    assert renderer.companion_spec is not None
    assert renderer.companion_spec.look != renderer.spec.look
