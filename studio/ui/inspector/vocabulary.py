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


def collect_vocabulary(tree: StoryTree, engine_words: EngineVocabulary = NO_WORDS) -> Vocabulary:
    nodes = list(tree.nodes.values())[:USED_MOTIONS_SCAN]
    used_motions = {n.instruction.motion for n in nodes if n.instruction.motion}
    return Vocabulary(
        characters=list(dict.fromkeys(m.name for m in tree.cast.values() if m.name.strip())),
        motions=sorted(set(engine_words.motions) | used_motions),
        backgrounds=sorted({loc.name for loc in tree.locations.values()} | set(engine_words.locations)),
        cameras=list(engine_words.cameras or FALLBACK_CAMERAS),
        adverbs=list(engine_words.adverbs),
    )
