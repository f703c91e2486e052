"""A motion verb written with two letters swapped, or misspelt by one letter when long enough,
is read in free text as it is in a Motion field: "Qiqi rnus in the park" runs, with the
field's warning ("'rnus' unknown, shown as 'run'"); it stood idle, "no motion found". Short
verbs are read misspelt only with two neighbouring letters swapped, and only where a verb
goes, so that ordinary sentences keep their reading ("Qiqi signs the letter" sings nothing,
"Qiqi likes cats" lies nowhere)."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.understanding import Reading, read_turn

from ..sketch_helpers import SMALL, predict


def read(text: str) -> Reading:
    return read_turn(parse_instruction(text))


@pytest.mark.parametrize(("text", "word", "motion"), [
    ("Qiqi rnus in the park", "rnus", "run"),
    ("Qiqi is walkign to school", "walkign", "walk"),
    ("Qiqi walkign to school", "walkign", "walk"),
    ("Qiqi wlaks", "wlaks", "walk"),
    ("Qiqi wlaks to school", "wlaks", "walk"),
    ("Qiqi is runnign home", "runnign", "run"),
    ("Qiqi hgus Yuzu", "hgus", "hug"),
    ("Qiqi jmups", "jmups", "jump"),
    ("she siwms in the sea", "siwms", "swim"),
    ("Qiqi and Yuzu dnace", "dnace", "dance"),
])
def test_a_misspelt_motion_in_free_text_reads_as_the_field_does(text: str, word: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert f"'{word}' unknown, shown as '{motion}'" in reading.warnings
    assert not any(w.startswith("no motion found") for w in reading.warnings)
    field = read(f"Motion: {word}")
    assert field.motion.name == motion


def test_the_misspelt_run_is_drawn_and_counted_as_a_run() -> None:
    engine = SketchEngine()
    misspelt = predict(engine, "Qiqi rnus in the park", seed=5, settings=SMALL)
    right = predict(engine, "Qiqi runs in the park", seed=5, settings=SMALL)
    assert (misspelt.conditioning["motion"], misspelt.conditioning["scene"]) == ("run", "park")
    assert misspelt.deltas == right.deltas
    assert misspelt.motion_level == right.motion_level == 4


ORDINARY = [
    ("Qiqi runs in the rain", "run"), ("Qiqi is in the park", "idle"), ("Qiqi nods", "nod"),
    ("Qiqi sings a song", "sing"), ("Qiqi signs the letter", "idle"), ("Qiqi likes cats", "idle"),
    ("Qiqi lives by the sea", "idle"), ("Qiqi is ready", "idle"), ("Qiqi is tired", "idle"),
    ("Qiqi is short", "idle"), ("Qiqi feels great", "idle"), ("Qiqi makes curry", "idle"),
    ("Qiqi wears a white dress", "idle"), ("Qiqi leans on the wall", "idle"), ("Qiqi heads east", "walk"),
    ("Qiqi is happy", "laugh"), ("Qiqi has a cat", "idle"), ("Qiqi sees the moon", "idle"),
    ("Qiqi hears a bird", "idle"), ("Qiqi loves the town", "idle"), ("Qiqi wants a cake", "idle"),
    ("Qiqi gets a letter", "idle"), ("Qiqi is late", "idle"), ("Qiqi is king of the hill", "idle"),
    ("Qiqi waits for the bus", "idle"), ("Qiqi reads a book", "read"), ("Qiqi eats an apple", "eat"),
    ("Qiqi drinks tea", "drink"), ("Qiqi sits on the bench", "sit"), ("Qiqi lies on the grass", "lie down"),
    ("Qiqi sleeps in her bed", "sleep"), ("Qiqi waves at Yuzu", "wave"), ("Qiqi hugs Yuzu", "hug"),
    ("Qiqi talks to Yuzu", "talk"), ("Qiqi cries", "cry"), ("Qiqi laughs", "laugh"), ("Qiqi claps", "clap"),
    ("Qiqi bows", "bow"), ("Qiqi swims in the sea", "swim"), ("Qiqi climbs the tree", "climb"),
    ("Qiqi throws the ball", "throw"), ("Qiqi prays at the shrine", "pray"), ("Qiqi sweeps the floor", "sweep"),
    ("Qiqi thinks", "think"), ("Qiqi jumps", "jump"), ("Qiqi walks to school", "walk"),
    ("Qiqi is singing", "sing"), ("Qiqi is walking home", "walk"), ("Qiqi tips her hat", "idle"),
    ("Qiqi uses a pen", "idle"), ("Qiqi owns a shop", "idle"), ("Qiqi spots a bird", "idle"),
    ("Qiqi rues the day", "idle"), ("Qiqi is tall", "idle"), ("Qiqi sips tea", "drink"),
]


def test_there_are_fifty_ordinary_sentences() -> None:
    assert len(ORDINARY) >= 50


@pytest.mark.parametrize(("text", "motion"), ORDINARY)
def test_ordinary_sentences_keep_their_reading(text: str, motion: str) -> None:
    reading = read(text)
    assert reading.motion.name == motion
    assert not any("unknown, shown as" in w for w in reading.warnings), reading.warnings
