"""A talk, a hug, a wave or a meeting done to no person is done alone: "Qiqi hugs her pillow"
and "Qiqi hugs her cat" drew her hugging a made-up person, "Qiqi talks to herself" talking to a
made-up friend, and each (and "waves at nobody") gained social as if with company. Now no friend
is drawn, the motion gains no social, and an animal, which the sketch world does not draw, is
named in a warning."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from studio.engines.base import Prediction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.no_one import done_to_no_one
from studio.engines.sketch.vocabulary import MOTION_BY_NAME

from ..sketch_helpers import SMALL, options, predict, render

CAT = "'cat' is not drawn: the sketch world draws no animals"


@pytest.mark.parametrize(("text", "no_one"), [
    ("Qiqi hugs her pillow", "pillow"),
    ("Qiqi hugs her cat", "cat"),
    ("Qiqi talks to herself", "herself"),
    ("Qiqi waves at nobody", "nobody"),
    ("Qiqi waves at no one", "nobody"),
    ("Qiqi hugs her old teddy bear", "bear"),
])
def test_no_one_is_there_and_no_social_is_gained(text: str, no_one: str) -> None:
    take = predict(SketchEngine(), text, seed=6, settings=SMALL)
    assert take.conditioning["no_one"] == no_one
    assert take.conditioning["companion"] == ""
    assert take.deltas.social == 0
    assert (CAT in take.warnings) == (no_one == "cat")


def _frames(pred: Prediction) -> np.ndarray:
    return SketchEngine().decode(pred, options(SMALL), 6).frames


def test_the_hug_is_drawn_without_a_second_figure() -> None:
    alone, clip = render(SketchEngine(), "Qiqi hugs her pillow", seed=6, settings=SMALL)
    assert np.array_equal(clip.frames, _frames(alone))
    with_someone = replace(alone, conditioning={
        key: value for key, value in alone.conditioning.items() if key != "no_one"})
    assert not np.array_equal(clip.frames, _frames(with_someone))  # without the mark, a friend is made up


@pytest.mark.parametrize(("text", "friend"), [
    ("Qiqi hugs Yuzu", "Yuzu"), ("Qiqi hugs her cat and Yuzu", "Yuzu"), ("Qiqi talks to the baker", ""),
    ("Qiqi talks", ""), ("Qiqi hugs her mother", ""), ("Qiqi talks about her cat", ""),
])
def test_people_are_still_company(text: str, friend: str) -> None:
    take = predict(SketchEngine(), text, seed=6, settings=SMALL)
    assert "no_one" not in take.conditioning
    assert take.conditioning["companion"] == friend
    assert take.deltas.social > 0


def test_the_reading_says_whom_the_motion_is_done_to() -> None:
    assert done_to_no_one("Qiqi waves at her dog", MOTION_BY_NAME["wave"]) == "dog"
    assert done_to_no_one("Qiqi runs after her dog", MOTION_BY_NAME["run"]) == ""  # no motion meant for someone
    assert done_to_no_one("Qiqi doesn't talk to herself", MOTION_BY_NAME["talk"]) == ""
