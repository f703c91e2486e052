"""Whose turn a turn without a Character field is: a name said in quotes is not the actor
(QA: '"Hi Yuzu!" says Aoi' was credited to Yuzu), and a script line ('Aoi: "I am home"') is
its speaker's turn."""

from __future__ import annotations

import pytest

from studio.core import StoryTree
from studio.core.speech import is_script_line, outside_quotes
from tests.core.cast_story import turns_in_a_row


def _tree(*texts: str) -> StoryTree:
    return turns_in_a_row(("Qiqi", "Yuzu", "Aoi", "River"), *texts, places=("River",))


@pytest.mark.parametrize(("text", "actor"), [
    ('"Hi Yuzu!" says Aoi', "Aoi"),
    ("\u201cYuzu, wait!\u201d shouts Aoi", "Aoi"),
    ("Aoi says \u300cYuzu\u300d quietly", "Aoi"),
    ("Aoi says 'look, Yuzu' in the park", "Aoi"),
    ('Aoi: "I am home, Yuzu"', "Aoi"),
    ('aoi: "I am home"', "Aoi"),
    ("Yuzu waves at Aoi", "Yuzu"),
    ("Qiqi's friend Yuzu doesn't run", "Qiqi"),
    ('"Yuzu runs in the park"', "Yuzu"),  # an instruction quoted whole is the instruction
    ('Qiqi says: "bye, Aoi"', "Qiqi"),
    ('Qiqi runs; Aoi: "wait!"', "Qiqi"),
    ('River: "I am the river"', "River"),
])
def test_the_actor_is_named_outside_quotes_or_speaks_the_line(text: str, actor: str) -> None:
    assert _tree("Character: Qiqi; Motion: run", text).acting_character("n1") == actor


def test_a_turn_naming_nobody_outside_quotes_continues_the_actor_before_it() -> None:
    tree = _tree("Character: Qiqi; Motion: run", '"Yuzu! Aoi!" she calls')
    assert tree.acting_character("n1") == "Qiqi"


def test_a_speaker_who_is_not_in_the_cast_gives_no_turn() -> None:
    tree = _tree("Character: Aoi; Motion: wave", 'Narrator: "Once upon a time"')
    assert tree.acting_character("n1") == "Aoi"


def test_the_character_field_still_wins() -> None:
    tree = _tree('Character: Yuzu; Motion: talk; Aoi: "hello"')
    assert tree.acting_character("n0") == "Yuzu"


def test_the_cache_answers_after_a_quote() -> None:
    tree = _tree('"Hi Yuzu!" says Aoi', "The wind blows")
    assert tree.acting_character("n1") == "Aoi"
    assert tree.acting_character("n0") == "Aoi"


def test_outside_quotes_and_script_lines() -> None:
    assert outside_quotes("Qiqi's cat doesn't run") == "Qiqi's cat doesn't run"
    assert "Yuzu" not in outside_quotes('"Hi Yuzu!" says Aoi')
    assert outside_quotes('"Aoi runs"') == '"Aoi runs"'
    assert "Yuzu" not in outside_quotes("Aoi: \u201eHallo Yuzu\u201c")
    assert is_script_line('"I am home"') and is_script_line("\u00abSalut\u00bb")
    assert not is_script_line('"I am" home') and not is_script_line('"..."') and not is_script_line("home")
