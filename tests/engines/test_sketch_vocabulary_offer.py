"""The sketch engine's words reach editors through its catalogue entry, without importing it."""

import json

from studio.engines.catalog.sketch import INFO, VOCABULARY_FILE
from studio.engines.sketch.offer import live_vocabulary, vocabulary_json


def test_sketch_offers_its_words() -> None:
    words = INFO.vocabulary()
    assert {"fly on broomstick", "sit on railing", "lie down", "run"} <= set(words.motions)
    assert {"sky", "town", "bedroom", "bakery"} <= set(words.locations)
    assert "orbit" in words.cameras and "gently" in words.adverbs


def test_catalogue_file_is_in_step_with_the_engine() -> None:
    stored = json.loads(VOCABULARY_FILE.read_text(encoding="utf-8"))
    assert stored == json.loads(vocabulary_json(live_vocabulary())), \
        "the sketch vocabulary changed: run `python -m studio.engines.sketch.offer`"
    assert INFO.vocabulary() == live_vocabulary()


def test_catalogue_declares_the_engines_representation() -> None:
    from studio.engines.sketch.representation import REPRESENTATION_SHAPE

    assert INFO.capabilities.representation.shape == REPRESENTATION_SHAPE
