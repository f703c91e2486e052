"""The shipped mini checkpoint (each module that runs it loads it once) and the calls its tests make of it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from studio.core.instruction import parse_instruction
from studio.core.model import CastMember
from studio.core.state import CharacterState

CAST = ("Aoi", "Qiqi", "Sosuke", "Taro", "Yuzu")
START = CharacterState()


def shipped_engine():  # type: ignore[no-untyped-def]
    """The mini engine with the shipped weights, on one CPU thread (skipped without its libraries)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    pytest.importorskip("diffusers")
    from studio.composition import default_checkpoints
    from studio.engines.base import EngineConfig
    from studio.engines.mini.engine import MiniEngine

    made = MiniEngine(EngineConfig(checkpoints=default_checkpoints(), threads=1))
    made.load()
    return made


def context(state: CharacterState = START, cast: Sequence[str] = CAST, history=()):  # type: ignore[no-untyped-def]
    from studio.engines.context import GenerationContext

    return GenerationContext(state=state, cast=tuple(CastMember(name.lower(), name) for name in cast),
                             history=tuple(history))


def predict(engine, text: str, state: CharacterState = START, seed: int = 7,  # type: ignore[no-untyped-def]
            history=(), temperature: float = 0.0):
    from studio.engines.catalog.mini import MiniSettings

    return engine.predict(context(state, history=history), parse_instruction(text),
                          MiniSettings.from_values({"steps": 1, "temperature": temperature}), seed)


def sketch(text: str, state: CharacterState = START):  # type: ignore[no-untyped-def]
    from studio.engines.catalog.sketch import SketchSettings
    from studio.engines.sketch.engine import SketchEngine

    return SketchEngine().predict(context(state), parse_instruction(text), SketchSettings(), 7)
