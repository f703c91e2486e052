"""A motion done with someone ("plays with Yuzu", "Qiqi and Yuzu dance", "with a friend",
"together") gains social: +1 (5 points) over the same motion done alone, whatever the
motion. A turn done alone is as before."""

from __future__ import annotations

import pytest

from studio.core.state import CharacterState
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.rules import COMPANY_SOCIAL, RuleInput, base_deltas
from studio.engines.sketch.vocabulary import MOTION_BY_NAME

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("alone", "together"), [
    ("Qiqi plays at the beach", "Qiqi plays with Yuzu at the beach"),
    ("Qiqi grabs lunch", "Qiqi grabs lunch with Yuzu"),
    ("Qiqi dances", "Qiqi and Yuzu dance"),
    ("Qiqi dances", "Qiqi dances with a friend"),
    ("Qiqi runs in the park", "Qiqi and her friends run together in the park"),
])
def test_company_adds_social(alone: str, together: str) -> None:
    engine = SketchEngine()
    for seed in (1, 2, 3):
        one = predict(engine, alone, seed=seed, settings=SMALL)
        two = predict(engine, together, seed=seed, settings=SMALL)
        assert one.conditioning["motion"] == two.conditioning["motion"]
        assert two.deltas.social > one.deltas.social
        assert any("done with someone" in r for r in two.conditioning["rules"])
        assert not any("done with someone" in r for r in one.conditioning["rules"])


@pytest.mark.parametrize("motion", ["run", "play", "eat", "dance", "talk", "sit", "cry"])
def test_the_gain_is_the_same_for_every_motion(motion: str) -> None:
    spec, state = MOTION_BY_NAME[motion], CharacterState()
    alone = base_deltas(RuleInput(spec, spec.level, "day", False, False, state))
    together = base_deltas(RuleInput(spec, spec.level, "day", False, False, state, True))
    assert together[1] - alone[1] == COMPANY_SOCIAL == 1
    assert (together[0], together[2]) == (alone[0], alone[2])


def test_walking_without_friends_is_alone() -> None:
    engine = SketchEngine()
    take = predict(engine, "Qiqi walks without her friends", seed=1, settings=SMALL)
    assert not any("done with someone" in r for r in take.conditioning["rules"])
