"""A speaker's name before a quoted line is a line of a script, not a misspelled field name:
`play` refused 'Qiqi: "Let's go to the beach!"' ("unknown field name 'Qiqi:'"), a turn the
sketch reads as Qiqi talking and captions as her line; and beside a field, a sentence with a
colon the parser reads as free text ("Character: Qiqi; Qiqi says: hello") is none either."""

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
    "Character: Qiqi; Qiqi says: hello.",  # a sentence with a colon beside a field is free text
    "Character: Qiqi; she whispers: hi.",
])
def test_a_line_of_a_script_or_a_sentence_with_a_colon_is_no_field(text: str) -> None:
    assert misspelled_field_names(text) == []


@pytest.mark.parametrize(("text", "names"), [
    ("Character: Qiqi; Motion: run; Backgroud: park", ["Backgroud"]),
    ("Motoin: dance", ["Motoin"]),
    ("Character: Qiqi; Mood: happy", ["Mood"]),
    ("Character: Qiqi; Motoin: dance", ["Motoin"]),
    ("Character: Qiqi; Motion: run; Tiem: night", ["Tiem"]),
])
def test_a_misspelled_field_is_still_named(text: str, names: list[str]) -> None:
    assert misspelled_field_names(text) == names
