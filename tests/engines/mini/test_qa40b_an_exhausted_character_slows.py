"""An exhausted character (stamina 10 or less) does a strenuous motion at level 2 at most, as the
sketch world's rule says, with its warning. Before, the mini drew "キキはドラゴンと戦う" as a punch
at level 4 at stamina 0, and "Qiqi runs fast in the park" at level 4 at stamina 5, without a word."""

from __future__ import annotations

import pytest

from studio.core.state import CharacterState
from studio.engines.mini.world_rules import level_caps, tired_warnings
from tests.engines.mini.qa40b_shipped import predict, shipped_engine, sketch


def test_the_caps_are_the_strenuous_motions_of_an_exhausted_character() -> None:
    assert level_caps(11) == {}
    caps = level_caps(10)
    assert caps["run"] == caps["jump"] == caps["dance"] == caps["punch"] == 2
    assert "talk" not in caps and "sleep" not in caps and "eat" not in caps
    assert tired_warnings("run", 4, 5, "Qiqi") == [
        "Qiqi is exhausted (stamina 5): 'run' drawn at level 2, not 4; rest, eat or sleep to get stamina back"]


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    return shipped_engine()


@pytest.mark.parametrize(("text", "stamina"), [
    ("Qiqi runs fast in the park", 5), ("キキはドラゴンと戦う", 0), ("Character: Qiqi; Motion: quickly jump", 10),
    ("Yuzu dances energetically at the beach", 0),
])
def test_a_strenuous_motion_is_drawn_at_level_two_with_the_sketch_warning(engine, text: str,  # type: ignore[no-untyped-def]
                                                                         stamina: int) -> None:
    state = CharacterState(stamina, 50, 50)
    rested = predict(engine, text, CharacterState(60, 50, 50))
    assert rested.motion_level > 2, "the turn asks for more than level 2"
    tired, drawn = predict(engine, text, state), sketch(text, state)
    assert tired.motion_level == 2 and tired.conditioning["level"] == 2
    assert tired.conditioning["motion"] == drawn.conditioning["motion"]
    said = [w for w in tired.warnings if " is exhausted " in w]
    assert said == [w for w in drawn.warnings if " is exhausted " in w], (tired.warnings, drawn.warnings)
    assert tired.deltas.stamina >= -3, "it costs the stamina of level 2"


def test_a_rested_or_gentle_turn_is_not_slowed(engine) -> None:  # type: ignore[no-untyped-def]
    fast = predict(engine, "Qiqi runs fast in the park", CharacterState(11, 50, 50))
    assert fast.motion_level > 2 and not any(" is exhausted " in w for w in fast.warnings)
    talk = predict(engine, "Qiqi talks loudly in the cafe", CharacterState(0, 50, 50))
    assert not any(" is exhausted " in w for w in talk.warnings)
