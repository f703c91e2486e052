"""A cast member who is the subject of a clause of their own ("Qiqi runs while Yuzu sleeps",
"Qiqi dances as Yuzu watches") does their own motion, not the character's: Yuzu was drawn
running beside Qiqi. The friend drawn can only join in the character's motion, so Yuzu is not
drawn, and the take says so."""

from __future__ import annotations

import pytest

from studio.engines.sketch import SketchEngine

from ..sketch_helpers import SMALL, predict


def busy(name: str, verb: str) -> str:
    return (f"'{name}' is not drawn: {name} {verb} meanwhile, and the sketch engine draws a friend only joining "
            f"in Qiqi's motion; name '{name}' in a turn of their own")


@pytest.mark.parametrize(("text", "motion", "friend", "warning"), [
    ("Qiqi runs while Yuzu sleeps", "run", "", busy("Yuzu", "sleeps")),
    ("Qiqi dances as Yuzu watches", "dance", "", busy("Yuzu", "watches")),
    ("Qiqi runs with Yuzu while Taro sleeps", "run", "Yuzu", busy("Taro", "sleeps")),
])
def test_a_member_with_a_verb_of_their_own_is_not_drawn_doing_the_motion(
        text: str, motion: str, friend: str, warning: str) -> None:
    take = predict(SketchEngine(), text, seed=2, settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["companion"]) == (motion, friend)
    assert warning in take.warnings
    assert not any("draws one friend" in w for w in take.warnings)


@pytest.mark.parametrize(("text", "friend"), [
    ("Qiqi runs with Yuzu", "Yuzu"), ("Qiqi waves at Yuzu as she leaves", "Yuzu"),
    ("Qiqi dances with Yuzu as the sun sets", "Yuzu"),
])
def test_a_member_joining_in_is_still_drawn(text: str, friend: str) -> None:
    take = predict(SketchEngine(), text, seed=2, settings=SMALL)
    assert take.conditioning["companion"] == friend
    assert not any("meanwhile" in w for w in take.warnings)
