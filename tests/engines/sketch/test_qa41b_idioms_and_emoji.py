"""Authors' turns of phrase are read as meant: "hits the books" studies (it punched), "is over
the moon" is happy (it was idle, or in the sky "on cloud nine"), "is feeling blue" is sad, "puts
her arms around Yuzu" hugs, "went jogging" and "went for a jog" jog (they walked, the jog left
out), "waters the flowers" is in the garden (it was the sea), "cooks dinner" names no meal eaten,
"waves with a smile" is a wave (the smile was a motion left out), and what two argue about is
not done ("argue about who ate the cookie" ate). An emoji is read where no word names a motion
("Qiqi 😴 in her room" sleeps); beside a motion in words it is decoration."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import SketchEngine
from studio.engines.sketch.idioms import motion_of_emoji, plainly
from studio.engines.sketch.understanding import read_instruction

from ..sketch_helpers import SMALL, predict


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi hit the books all night", "read"), ("Qiqi hits the hay early", "sleep"),
    ("Qiqi is over the moon", "laugh"), ("Qiqi was on cloud nine", "laugh"), ("Qiqi is feeling blue", "cry"),
    ("Qiqi felt a bit down", "cry"), ("Qiqi puts her arms around Yuzu", "hug"),
    ("Qiqi wolfed down her lunch", "eat"), ("Qiqi went for a jog along the river", "run"),
    ("Qiqi went jogging", "run"), ("Qiqi goes swimming in the sea", "swim"), ("Qiqi kicks back on the couch", "idle"),
    ("Qiqi is having a blast at the beach", "play"), ("Qiqi waves with a smile", "wave"),
    ("Qiqi sings with tears in her eyes", "sing"),
])
def test_an_idiom_is_read_as_meant_with_nothing_left_out(text: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == motion
    assert reading.warnings == []


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi flies over the moon", "fly on broomstick"), ("Qiqi hits the ball", "punch"),
    ("Qiqi kicks the ball back", "play"), ("Qiqi goes shopping", "walk"), ("Qiqi goes for a walk in the park", "walk"),
])
def test_the_same_words_said_plainly_stay(text: str, motion: str) -> None:
    assert read_instruction(parse_instruction(text)).motion.name == motion


@pytest.mark.parametrize(("text", "place"), [
    ("Qiqi was on cloud nine", "town"), ("Qiqi waters the flowers", "garden"), ("Qiqi swims in the water", "sea"),
    ("Qiqi is over the moon in the park", "park"),
])
def test_an_idiom_names_no_place(text: str, place: str) -> None:
    assert predict(SketchEngine(), text, settings=SMALL).conditioning["scene"] == place


@pytest.mark.parametrize("text", ["Qiqi cooks dinner for her family", "Qiqi cooks lunch in the kitchen"])
def test_a_meal_cooked_is_no_meal_eaten(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert (reading.motion.name, reading.warnings) == ("cook", [])


def test_a_meal_cooked_and_eaten_is_two_motions() -> None:
    reading = read_instruction(parse_instruction("Qiqi cooks and eats dinner"))
    assert any("left out 'eat'" in w for w in reading.warnings)


def test_what_is_argued_about_is_not_done() -> None:
    reading = read_instruction(parse_instruction("Qiqi and Yuzu argue about who ate the last cookie"))
    assert reading.motion.name == "idle"
    assert plainly("thinks about what she did") == "thinks about it"


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi 😴 in her room", "sleep"), ("Qiqi 💃💃 at the party", "dance"), ("Qiqi ❤️ Yuzu", "hug"),
    ("キキ😴", "sleep"),
])
def test_an_emoji_alone_is_its_motion(text: str, motion: str) -> None:
    take = predict(SketchEngine(), text, settings=SMALL)
    assert take.conditioning["motion"] == motion
    assert not any("no motion found" in w for w in take.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi runs to school 😂", "run"), ("Qiqi eats ramen 🍜 at the cafe 😴", "eat"), ('Qiqi says "😴"', "talk"),
])
def test_an_emoji_beside_words_is_decoration(text: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == motion
    assert not any("several motions" in w for w in reading.warnings)


def test_the_first_emoji_of_a_motion_counts() -> None:
    assert (motion_of_emoji("🌸 ✨ 😭 💃"), motion_of_emoji("🌸 ✨")) == ("cry", "")
