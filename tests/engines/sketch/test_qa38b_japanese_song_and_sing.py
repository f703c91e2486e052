"""The Japanese reader keeps both words written 歌: the noun song (歌を歌う, a turn "歌") and
the stem of the verb 歌う, sing (歌う, 歌って). Before, its word table kept one word for each
spelling, the verb's stem, which is read only before a verb's ending: 歌 alone, or before
を/が/は, was not read at all. The only other word so read is のんびり: an adverb (のんびり歩く
walks leisurely) and, before する, the idle (のんびりする)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from studio.core.instruction import parse_instruction
from studio.engines.sketch import japanese
from studio.engines.sketch.japanese import JapaneseWord, in_english_words
from studio.engines.sketch.understanding import read_turn

Table = Mapping[str, tuple[JapaneseWord, ...]]

GROUPS = {"adverbs": japanese.ADVERB_WORDS, "motions": japanese.MOTION_WORDS, "times": japanese.TIME_WORDS,
          "places": japanese.PLACE_WORDS, "cameras": japanese.CAMERA_WORDS}
TABLES: dict[str, tuple[Table, tuple[str, ...]]] = {
    "text": (japanese.TEXT_TABLE, ("adverbs", "motions", "times", "places", "cameras")),
    "place": (japanese.PLACE_TABLE, ("times", "places", "motions")),
    "time": (japanese.TIME_TABLE, ("times",)),
    "camera": (japanese.CAMERA_TABLE, ("cameras",)),
    "adverb": (japanese.ADVERB_TABLE, ("adverbs",)),
}
"""Each table the reader reads a field with, and the groups of words it is made of, in order."""


def one_word_per_spelling(groups: Iterable[Iterable[JapaneseWord]]) -> dict[str, tuple[JapaneseWord, ...]]:
    """The table as it was: the first word of each spelling only, by first character, longest first."""
    seen: dict[str, JapaneseWord] = {}
    for group in groups:
        for word in group:
            seen.setdefault(word.written, word)
    by_first: dict[str, list[JapaneseWord]] = {}
    for word in seen.values():
        by_first.setdefault(word.written[0], []).append(word)
    return {first: tuple(sorted(words, key=lambda w: -len(w.written))) for first, words in by_first.items()}


def contexts(word: JapaneseWord) -> list[str]:
    """Texts with ``word`` in them: alone, before particles, in a sentence, and a verb before each of its endings."""
    said = word.dictionary_form
    texts = [said, f"{said}。", f"美咲が{said}", f"公園で{said}", f"{word.written}を", f"{word.written}が",
             f"{word.written}は", f"{word.written}の", f"{word.written}を歌う"]
    texts += [word.written + kana for kana in word.follow]
    return texts


ALL_WORDS = [word for group in GROUPS.values() for word in group]


@pytest.mark.parametrize("name", list(TABLES))
def test_only_song_reads_differently_from_the_table_of_one_word_per_spelling(name: str) -> None:
    table, group_names = TABLES[name]
    before = one_word_per_spelling(GROUPS[group] for group in group_names)
    changed = {(word.written, text) for word in ALL_WORDS for text in contexts(word)
               if in_english_words(text, table) != in_english_words(text, before)}
    assert {written for written, _ in changed} <= {"歌", "のんびり"}
    if name in ("text", "place"):  # the tables that hold the motions
        assert changed


@pytest.mark.parametrize(("text", "english"), [
    ("歌", "song"), ("歌を歌う", "song を sing"), ("歌が好き", "song が好き"), ("歌は", "song は"),
    ("歌う", "sing"), ("歌って", "sing"), ("歌わない", "not sing,"), ("美咲が歌を歌っている", "美咲が song を sing"),
    ("鼻歌", "hum"),
])
def test_song_and_sing_are_told_apart_by_what_follows(text: str, english: str) -> None:
    assert in_english_words(text) == english


@pytest.mark.parametrize("text", ["キャラクター：美咲；動作：歌", "キャラクター：美咲；動作：歌を歌う；背景：公園",
                                  "美咲が公園で歌を歌う"])
def test_a_turn_of_a_song_sings_without_a_warning(text: str) -> None:
    reading = read_turn(parse_instruction(text))
    assert reading.motion is not None and reading.motion.name == "sing"
    assert reading.warnings == []
