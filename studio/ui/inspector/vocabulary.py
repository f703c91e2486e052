"""Words for the instruction editor's autocomplete: the project's cast and world, plus the
sketch engine's vocabulary when that engine is installed (it is plain Python, cheap)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from studio.core.tree import StoryTree

TIMES = ("day", "sunset", "night")


@dataclass(frozen=True)
class Vocabulary:
    characters: list[str] = field(default_factory=list)
    motions: list[str] = field(default_factory=list)
    backgrounds: list[str] = field(default_factory=list)
    cameras: list[str] = field(default_factory=list)
    adverbs: list[str] = field(default_factory=list)


def _sketch_words() -> tuple[list[str], list[str], list[str], list[str]]:
    try:
        vocab = importlib.import_module("studio.engines.sketch.vocabulary")
    except ImportError:
        return [], [], [], []
    motions = sorted({p for m in getattr(vocab, "MOTIONS", ()) for p in m.phrases})
    places = [loc.name for loc in getattr(vocab, "LOCATIONS", ())]
    cameras = sorted({p for phrases in getattr(vocab, "CAMERA_PHRASES", {}).values() for p in phrases})
    adverbs = sorted(getattr(vocab, "ADVERB_LEVELS", {}))
    return motions, places, cameras, adverbs


def collect_vocabulary(tree: StoryTree) -> Vocabulary:
    motions, places, cameras, adverbs = _sketch_words()
    used_motions = {n.instruction.motion for n in list(tree.nodes.values())[:5000] if n.instruction.motion}
    characters = sorted({m.name for m in tree.cast.values()})
    backgrounds = sorted({loc.name for loc in tree.locations.values()} | set(places))
    return Vocabulary(
        characters=characters,
        motions=sorted(set(motions) | used_motions),
        backgrounds=backgrounds,
        cameras=cameras or ["static", "follow", "orbit", "pan", "zoom in"],
        adverbs=adverbs,
    )
