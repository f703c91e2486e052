"""A Motion field written as a whole clause, subject and all, is captioned with the Character
field's name once ("Character: Qiqi; Motion: Hana waves at the sea" read "Qiqi hanas waves at
the sea.", "Motion: she waves" "Qiqi shes waves"), and an adverb that English puts after the
verb stays there ("Motion: run fast" read "Qiqi fast runs.")."""

from __future__ import annotations

import pytest

from studio.core.instruction import parse_instruction
from studio.core.sentence import describe_action


@pytest.mark.parametrize(("text", "caption"), [
    ("Character: Qiqi; Motion: Hana waves at the sea", "Qiqi waves at the sea."),
    ("Character: Qiqi; Motion: she waves at the sea", "Qiqi waves at the sea."),
    ("Character: Qiqi; Motion: Qiqi waves at the sea", "Qiqi waves at the sea."),
    ("Character: Qiqi and Yuzu; Motion: they dance", "Qiqi and Yuzu dance."),
    ("Character: Qiqi; Motion: He runs to the station", "Qiqi runs to the station."),
    ("Character: Qiqi; Motion: Run fast", "Qiqi runs fast."),
    ("Character: Qiqi; Motion: run very fast", "Qiqi runs very fast."),
    ("Character: Qiqi; Motion: run; Adverb: fast", "Qiqi runs fast."),
    ("Character: Qiqi; Motion: jump; Adverb: a little", "Qiqi jumps a little."),
])
def test_the_caption_names_who_acts_once_and_puts_the_adverb_where_english_does(text: str, caption: str) -> None:
    assert describe_action(parse_instruction(text)) == caption


@pytest.mark.parametrize(("text", "caption"), [
    ("Motion: Hana waves at the sea", "Hana waves at the sea."),  # no Character field: the clause's own subject
    ("Character: Qiqi; Motion: wave to Yuzu", "Qiqi waves to Yuzu."),
    ("Character: Qiqi; Motion: Waves at the sea", "Qiqi waves at the sea."),
    ("Character: Qiqi; Motion: walk slowly", "Qiqi slowly walks."),
    ("Character: Qiqi; Motion: wave; Adverb: gently", "Qiqi gently waves."),
    ("Character: Qiqi; Motion: sit and read", "Qiqi sits and reads."),
])
def test_other_motions_keep_their_words(text: str, caption: str) -> None:
    assert describe_action(parse_instruction(text)) == caption
