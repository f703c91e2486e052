"""Turns of phrase whose words read as another motion: "is going to dance" is a dance to come
(it was a walk, the dance left out), "hops on her broom" mounts it to fly (it was a jump),
"catches her breath" rests standing (it was a catch), "stopped crying and smiles" smiles (the
stop was drawn, the smile left out) and "sits on a bench and reads a letter" reads seated, as
"reads a letter on a bench" does (it sat, the read left out)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


def read(text: str) -> tuple[str, list[str]]:
    reading = read_instruction(parse_instruction(text))
    return reading.motion.name, reading.warnings


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi is going to dance", "dance"),
    ("Is Qiqi going to fly today?", "fly on broomstick"),
    ("Qiqi was going to swim in the sea", "swim"),
    ("Qiqi hops on her broom and flies over the town", "fly on broomstick"),
    ("Qiqi jumps onto the broomstick", "fly on broomstick"),
    ("Qiqi stops running and catches her breath", "idle"),
    ("Qiqi catches her breath", "idle"),
    ("Qiqi stopped crying and smiles", "laugh"),
    ("Qiqi stops dancing and sits down", "sit"),
    ("Qiqi sits on a bench and reads a letter", "read"),
    ("Qiqi sits on the sofa and eats a snack", "eat"),
])
def test_the_motion_meant_is_drawn_with_nothing_left_out(text: str, motion: str) -> None:
    assert read(text) == (motion, [])


def test_reading_on_the_bench_sits_on_it() -> None:
    take = predict(SketchEngine(), "Qiqi sits on a bench and reads a letter", seed=2, settings=SMALL)
    assert (take.conditioning["motion"], take.conditioning["seat"]) == ("read", "bench")


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi is going to the park", "walk"),
    ("Qiqi is going to bed", "sleep"),
    ("Qiqi goes to school", "walk"),
    ("Qiqi catches the ball", "catch"),
    ("Qiqi hops over the puddle", "jump"),
    ("Qiqi stops running", "idle"),
    ("Qiqi stops and waves", "idle"),
    ("Qiqi sits on a bench", "sit"),
    ("Qiqi sits on a bench and sleeps", "sit"),
])
def test_ordinary_turns_read_as_before(text: str, motion: str) -> None:
    assert read(text)[0] == motion


def test_a_stop_alone_still_leaves_out_what_follows() -> None:
    assert read("Qiqi stops and waves") == (
        "idle", ["several motions named, shown as 'idle'; left out 'wave' (a clip shows one motion)"])
