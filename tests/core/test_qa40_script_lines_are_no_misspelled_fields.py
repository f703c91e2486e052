"""A speaker's name before a quoted line is a line of a script, not a misspelled field name:
`play` refused 'Qiqi: "Let's go to the beach!"' ("unknown field name 'Qiqi:'"), a turn the
sketch reads as Qiqi talking and captions as her line."""

from __future__ import annotations

import pytest

from studio.core.field_names import misspelled_field_names


@pytest.mark.parametrize("text", [
    'Qiqi: "Let\'s go to the beach!"',
    'Character: Qiqi; Motion: wave; Yuzu: "hi!"',
    'Yuzu: "Hi!"; Character: Qiqi; Motion: wave',
    "美咲：「こんにちは」",
    "Aoi: I am home",
    "Qiqi says: hello",
])
def test_a_line_of_a_script_or_a_sentence_with_a_colon_is_no_field(text: str) -> None:
    assert misspelled_field_names(text) == []


@pytest.mark.parametrize(("text", "names"), [
    ("Character: Qiqi; Motion: run; Backgroud: park", ["Backgroud"]),
    ("Motoin: dance", ["Motoin"]),
    ("Character: Qiqi; Mood: happy", ["Mood"]),
])
def test_a_misspelled_field_is_still_named(text: str, names: list[str]) -> None:
    assert misspelled_field_names(text) == names
