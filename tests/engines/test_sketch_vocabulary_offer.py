"""The sketch engine offers its vocabulary to editors through the engine protocol."""

from studio.engines.base import EngineVocabulary, engine_vocabulary
from studio.engines.sketch import SketchEngine


def test_sketch_offers_its_words() -> None:
    words = engine_vocabulary(SketchEngine())
    assert {"fly on broomstick", "sit on railing", "lie down", "run"} <= set(words.motions)
    assert {"sky", "town", "bedroom", "bakery"} <= set(words.locations)
    assert "orbit" in words.cameras and "gently" in words.adverbs


def test_engine_without_vocabulary_offers_nothing() -> None:
    assert engine_vocabulary(object()) == EngineVocabulary()
