"""Keeps the catalogue's copy of the sketch vocabulary in step with the engine's tables.

The window offers completions from ``studio/engines/catalog/sketch_vocabulary.json`` without
importing the engine; after changing the vocabulary, regenerate it with
``python -m studio.engines.sketch.offer`` (a test fails while the two differ).

Besides the English words, the file lists the Japanese, Chinese and Korean words the engine
reads for the same motions, places, camera moves and adverbs: a turn written in one of those
languages is offered words of its own language.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from studio.engines.catalog.sketch import VOCABULARY_FILE
from studio.engines.info import EngineVocabulary
from studio.engines.sketch import chinese, japanese, korean
from studio.engines.sketch.vocabulary import ADVERB_LEVELS, CAMERA_PHRASES, LOCATIONS, MOTIONS

_KINDS = ("motions", "locations", "cameras", "adverbs")


def _known() -> dict[str, frozenset[str]]:
    """The English words of each kind that name something the engine draws: a Japanese or
    Chinese word read as one of them is offered (a place read as one not drawn, 空港, is not)."""
    return {
        "motions": frozenset(phrase for motion in MOTIONS for phrase in motion.phrases),
        "locations": frozenset(phrase for location in LOCATIONS for phrase in location.phrases),
        "cameras": frozenset(phrase for phrases in CAMERA_PHRASES.values() for phrase in phrases),
        "adverbs": frozenset(ADVERB_LEVELS),
    }


_Read = Callable[[str, Any], str]
"""A reader's ``in_english_words(text, table)``."""


def _offered(pairs: Iterable[tuple[str, str]], known: frozenset[str], read: _Read, table: Any) -> tuple[str, ...]:
    """The written words of ``pairs`` (written, English) read as a ``known`` word, once each, in
    the order of the tables (a motion's words together). A word the reader does not read as its
    English when it is written alone is left out: chosen, it would not be understood."""
    return tuple(dict.fromkeys(written for written, english in pairs
                               if english in known and read(written, table).strip() == english))


def _one_of_each_motion_first(offered: tuple[str, ...], pairs: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """``offered`` motion words with the first word of each motion first, in the tables'
    order, then the others: a menu cut to its first words offers every motion it can (walk
    among them), not a motion's many synonyms (an idle's seventeen in Chinese)."""
    motion_of = {phrase: motion.name for motion in MOTIONS for phrase in motion.phrases}
    english = dict(pairs)
    firsts: dict[str, str] = {}
    for word in offered:
        firsts.setdefault(motion_of.get(english.get(word, ""), word), word)
    first_words = set(firsts.values())
    return (*firsts.values(), *(word for word in offered if word not in first_words))


def _vocabulary(words: dict[str, Iterable[tuple[str, str]]], read: _Read, tables: dict[str, Any]) -> EngineVocabulary:
    known = _known()
    words = {kind: list(pairs) for kind, pairs in words.items()}  # read twice below

    def offered(kind: str) -> tuple[str, ...]:
        return _offered(words[kind], known[kind], read, tables[kind])

    motions = _one_of_each_motion_first(offered("motions"), words["motions"])
    return EngineVocabulary(motions=motions, locations=offered("locations"), cameras=offered("cameras"),
                            adverbs=offered("adverbs"))


def _japanese() -> EngineVocabulary:
    def pairs(table: Iterable[japanese.JapaneseWord]) -> list[tuple[str, str]]:
        return [(word.dictionary_form, word.english) for word in table]

    tables = {"motions": japanese.TEXT_TABLE, "locations": japanese.PLACE_TABLE, "cameras": japanese.CAMERA_TABLE,
              "adverbs": japanese.TEXT_TABLE}
    return _vocabulary({"motions": pairs(japanese.MOTION_WORDS), "locations": pairs(japanese.PLACE_WORDS),
                        "cameras": pairs(japanese.CAMERA_WORDS), "adverbs": pairs(japanese.ADVERB_WORDS)},
                       japanese.in_english_words, tables)


def _chinese(traditional: bool) -> EngineVocabulary:
    def pairs(groups: dict[Any, str]) -> list[tuple[str, str]]:
        listed = chinese.simplified_words(groups.values())
        return [(chinese.in_traditional(word) if traditional else word, english) for word, english in listed]

    tables = {"motions": chinese.TEXT_TABLE, "locations": chinese.PLACE_TABLE, "cameras": chinese.CAMERA_TABLE,
              "adverbs": chinese.TEXT_TABLE}
    return _vocabulary({"motions": pairs(chinese.MOTION_GROUPS), "locations": pairs(chinese.PLACE_GROUPS),
                        "cameras": pairs(chinese.CAMERA_GROUPS), "adverbs": pairs(chinese.ADVERB_GROUPS)},
                       chinese.in_english_words, tables)


def _korean() -> EngineVocabulary:
    """The Korean words, a verb in its dictionary form (달리다, 따라가다), as an author looks
    it up and the reader reads it back. The noun of a verb made with 하다 (산책 of 산책하다) is
    left out: the verb is offered; so is a word that says a motion only with another (고개,
    head, of 고개를 돌리다)."""
    verbs = {word.written for word in korean.MOTION_WORDS if word.kind == "verb"}
    motions = [word for word in korean.MOTION_WORDS if word not in korean.PART_WORDS]

    def pairs(table: Iterable[korean.KoreanWord]) -> list[tuple[str, str]]:
        return [(word.written + "다" if word.kind == "verb" else word.written, word.english) for word in table
                if not (word.kind == "action" and word.written + "하" in verbs)]

    tables = {"motions": korean.TEXT_TABLE, "locations": korean.PLACE_TABLE, "cameras": korean.CAMERA_TABLE,
              "adverbs": korean.TEXT_TABLE}
    return _vocabulary({"motions": pairs(motions), "locations": pairs(korean.PLACE_WORDS),
                        "cameras": pairs(korean.CAMERA_WORDS), "adverbs": pairs(korean.ADVERB_WORDS)},
                       korean.in_english_words, tables)


def live_vocabulary() -> EngineVocabulary:
    """Motion phrases, locations, camera words and adverbs the engine understands, and the
    Japanese, Chinese (Simplified and Traditional) and Korean words it reads as them."""
    return EngineVocabulary(
        motions=tuple(sorted({phrase for motion in MOTIONS for phrase in motion.phrases})),
        locations=tuple(location.name for location in LOCATIONS),
        cameras=tuple(sorted({p for phrases in CAMERA_PHRASES.values() for p in phrases})),
        adverbs=tuple(sorted(ADVERB_LEVELS)),
        languages=(("ja", _japanese()), ("zh", _chinese(False)), ("zh-hant", _chinese(True)), ("ko", _korean())),
    )


def _as_data(vocabulary: EngineVocabulary) -> dict[str, Any]:
    data: dict[str, Any] = {kind: getattr(vocabulary, kind) for kind in _KINDS}
    if vocabulary.languages:
        data["languages"] = {language: _as_data(words) for language, words in vocabulary.languages}
    return data


def vocabulary_json(vocabulary: EngineVocabulary) -> str:
    return json.dumps(_as_data(vocabulary), ensure_ascii=False, indent=1) + "\n"


def write_catalog_vocabulary(path: Path = VOCABULARY_FILE) -> Path:
    path.write_text(vocabulary_json(live_vocabulary()), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_catalog_vocabulary())
