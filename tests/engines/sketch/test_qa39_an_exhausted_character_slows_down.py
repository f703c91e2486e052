"""A character with no stamina left (10 or less) does not run, jump or dance at full strength:
the strenuous motion is drawn at level 2 at most, with a warning; it was drawn at level 4
turn after turn at stamina 0, without a word."""

from __future__ import annotations

import pytest

from studio.core.state import CharacterState
from studio.engines.sketch import SketchEngine

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "motion", "level"), [
    ("Qiqi runs", "run", 4), ("Qiqi jumps", "jump", 4), ("Qiqi dances", "dance", 4),
    ("Qiqi runs very quickly", "run", 5),
])
def test_an_exhausted_character_is_drawn_at_level_two(text: str, motion: str, level: int) -> None:
    engine = SketchEngine()
    rested = predict(engine, text, seed=3, settings=SMALL, state=CharacterState(stamina=80))
    assert rested.motion_level == level
    for stamina in (0, 10):
        tired = predict(engine, text, seed=3, settings=SMALL, state=CharacterState(stamina=stamina))
        assert tired.conditioning["motion"] == motion
        assert tired.motion_level == tired.conditioning["level"] == 2
        assert f"Qiqi is exhausted (stamina {stamina}): '{motion}' drawn at level 2, not {level}; " \
               "rest, eat or sleep to get stamina back" in tired.warnings
        assert any(r.startswith(f"effort of '{motion}' at level 2:") for r in tired.conditioning["rules"])


@pytest.mark.parametrize("text", ["Qiqi walks", "Qiqi sleeps", "Qiqi eats", "Qiqi runs slowly", "Qiqi waves"])
def test_gentle_motions_are_drawn_as_asked(text: str) -> None:
    engine = SketchEngine()
    rested = predict(engine, text, seed=3, settings=SMALL, state=CharacterState(stamina=80))
    tired = predict(engine, text, seed=3, settings=SMALL, state=CharacterState(stamina=0))
    assert tired.motion_level == rested.motion_level
    assert not any("exhausted" in w for w in tired.warnings)


def test_a_little_stamina_left_is_enough_to_run() -> None:
    take = predict(SketchEngine(), "Qiqi runs", seed=3, settings=SMALL, state=CharacterState(stamina=15))
    assert take.motion_level == 4
    assert not any("exhausted" in w for w in take.warnings)
