"""Keeps the catalogue's copy of the sketch vocabulary in step with the engine's tables.

The window offers completions from ``studio/engines/catalog/sketch_vocabulary.json`` without
importing the engine; after changing the vocabulary, regenerate it with
``python -m studio.engines.sketch.offer`` (a test fails while the two differ).
"""

from __future__ import annotations

import json
from pathlib import Path

from studio.engines.catalog.sketch import VOCABULARY_FILE
from studio.engines.info import EngineVocabulary
from studio.engines.sketch.vocabulary import ADVERB_LEVELS, CAMERA_PHRASES, LOCATIONS, MOTIONS


def live_vocabulary() -> EngineVocabulary:
    """Motion phrases, locations, camera words and adverbs the engine understands."""
    return EngineVocabulary(
        motions=tuple(sorted({phrase for motion in MOTIONS for phrase in motion.phrases})),
        locations=tuple(location.name for location in LOCATIONS),
        cameras=tuple(sorted({p for phrases in CAMERA_PHRASES.values() for p in phrases})),
        adverbs=tuple(sorted(ADVERB_LEVELS)),
    )


def vocabulary_json(vocabulary: EngineVocabulary) -> str:
    data = {"motions": vocabulary.motions, "locations": vocabulary.locations, "cameras": vocabulary.cameras,
            "adverbs": vocabulary.adverbs}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def write_catalog_vocabulary(path: Path = VOCABULARY_FILE) -> Path:
    path.write_text(vocabulary_json(live_vocabulary()), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_catalog_vocabulary())
