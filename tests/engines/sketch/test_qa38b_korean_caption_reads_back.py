"""A Korean caption's verb (:func:`~studio.core.sentence.korean_motion`: 달리기 -> 달린다) is
Korean the sketch engine's reader reads as the motion the author wrote: the plain present of
every Korean verb the engine offers reads as that verb, so the caption says what is drawn."""

from __future__ import annotations

import pytest

from studio.core.sentence import korean_motion
from studio.engines.sketch import korean
from studio.engines.sketch.offer import live_vocabulary

_KOREAN = live_vocabulary().in_language("ko")
assert _KOREAN is not None
VERBS = [word for word in _KOREAN.motions if word.endswith(("다", "기"))]
_READINGS: dict[str, set[str]] = {}
for _word in VERBS:
    _READINGS.setdefault(korean_motion(_word), set()).add(korean.in_english_words(_word))
_SHARED = {present for present, readings in _READINGS.items() if len(readings) > 1}
"""Presents of two offered verbs that read differently (쓴다, of 쓸다 sweep and 쓰다 write)."""


def test_the_korean_verbs_are_offered() -> None:
    assert len(VERBS) > 150 and "달리기" in VERBS


@pytest.mark.parametrize("motion", [word for word in VERBS if korean_motion(word) not in _SHARED])
def test_the_caption_verb_reads_as_the_motion_written(motion: str) -> None:
    """(A present shared by two verbs, 쓴다 of 쓸다 and 쓰다, is left out: Korean says both alike.)"""
    said = korean_motion(motion)
    assert said != motion or motion in ("춥다", "뾰로통하다")
    assert korean.in_english_words(said) == korean.in_english_words(motion)


def test_a_present_shared_by_two_offered_verbs() -> None:
    assert {word for word in VERBS if korean_motion(word) in _SHARED} == {"쓸다", "쓰다"}
