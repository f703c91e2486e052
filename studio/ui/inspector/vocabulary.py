"""Words for the instruction editor's autocomplete: the project's cast and world, the
motions already used in the story, and what the current engine says it understands."""

from __future__ import annotations

from dataclasses import dataclass, field

from studio.core.instruction import TIME_CHOICES
from studio.core.tree import StoryTree
from studio.engines.base import EngineVocabulary

TIMES = TIME_CHOICES
NO_WORDS = EngineVocabulary()
FALLBACK_CAMERAS = ("static", "follow", "orbit", "pan", "zoom")
USED_MOTIONS_SCAN = 5000
"""Scan at most this many nodes for motions already in use (keeps huge stories cheap)."""


@dataclass(frozen=True)
class Vocabulary:
    characters: list[str] = field(default_factory=list)
    motions: list[str] = field(default_factory=list)
    backgrounds: list[str] = field(default_factory=list)
    cameras: list[str] = field(default_factory=list)
    adverbs: list[str] = field(default_factory=list)
    languages: dict[str, Vocabulary] = field(default_factory=dict)
    """The same in the other languages the engine reads ('ja', 'zh', 'zh-hant', 'ko'), for a turn
    written in one of them."""

    def in_language(self, language: str) -> Vocabulary:
        """The words for a turn written in ``language`` (a key of
        :data:`~studio.ui.inspector.instruction_editor.LINE_KEYS`): these for English, and for a
        language the engine offers no words in (its English words are all there is)."""
        return self.languages.get(language, self) if language else self


def collect_vocabulary(tree: StoryTree, engine_words: EngineVocabulary = NO_WORDS) -> Vocabulary:
    nodes = list(tree.nodes.values())[:USED_MOTIONS_SCAN]
    used_motions = {n.instruction.motion for n in nodes if n.instruction.motion}
    characters = list(dict.fromkeys(m.name for m in tree.cast.values() if m.name.strip()))
    places = sorted({loc.name for loc in tree.locations.values()})
    return Vocabulary(
        characters=characters,
        motions=sorted(set(engine_words.motions) | used_motions),
        backgrounds=sorted(set(places) | set(engine_words.locations)),
        cameras=list(engine_words.cameras or FALLBACK_CAMERAS),
        adverbs=list(engine_words.adverbs),
        languages={language: _in_language(words, characters, places) for language, words in engine_words.languages},
    )


def _in_language(words: EngineVocabulary, characters: list[str], places: list[str]) -> Vocabulary:
    """The engine's ``words`` of one language, in its order (a motion's words together), with
    the project's cast and its locations' names (names, offered as they are written)."""
    return Vocabulary(
        characters=characters,
        motions=list(words.motions),
        backgrounds=list(dict.fromkeys([*words.locations, *places])),
        cameras=list(words.cameras),
        adverbs=list(words.adverbs),
    )
