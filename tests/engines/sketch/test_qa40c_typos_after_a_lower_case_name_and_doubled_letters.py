"""A misspelt motion is read after a name written in lower case ("qiqi slepps") and after a
pronoun, and so is a short verb with its last letter written twice ("jumpp", "runn", "walkk",
"jumpps"): each was shown idle with "no motion found". Real words stay what they are."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch.understanding import read_instruction


@pytest.mark.parametrize(("text", "written", "motion"), [
    ("qiqi slepps in her room", "slepps", "sleep"),
    ("yuzu danses in the park", "danses", "dance"),
    ("She jumpps", "jumpps", "jump"),
    ("Qiqi is teh best, she jumpps", "jumpps", "jump"),
    ("Qiqi jumpp happily in the park", "jumpp", "jump"),
    ("Yuzu runn", "runn", "run"),
    ("Aoi walkk", "walkk", "walk"),
    ("yuzu walkks home", "walkks", "walk"),
    ("Qiqi sitts on the bench", "sitts", "sit"),
])
def test_the_misspelt_verb_is_read_with_a_warning(text: str, written: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == motion
    assert f"'{written}' unknown, shown as '{motion}'" in reading.warnings


def test_the_place_is_still_read_after_a_lower_case_name() -> None:
    reading = read_instruction(parse_instruction("qiqi slepps in her room"))
    assert reading.location == "bedroom"


@pytest.mark.parametrize("text", ["qiqi feels great", "qiqi makes curry", "qiqi is short", "she feels great"])
def test_real_words_after_a_lower_case_name_stay_no_motion(text: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == "idle"
    assert not any("unknown, shown as" in w for w in reading.warnings)


@pytest.mark.parametrize(("text", "motion"), [
    ("Qiqi hopped", "jump"), ("Qiqi runs", "run"), ("qiqi runs", "run"), ("Yuzu is running", "run"),
    ("Aoi walked home", "walk"),
])
def test_real_forms_read_as_before_without_a_warning(text: str, motion: str) -> None:
    reading = read_instruction(parse_instruction(text))
    assert reading.motion.name == motion
    assert not any("unknown" in w for w in reading.warnings)
