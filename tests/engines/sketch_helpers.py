"""Helpers for the sketch engine tests (imported relatively: ``from .sketch_helpers import ...``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from studio.core.instruction import parse_instruction
from studio.core.state import CharacterState
from studio.engines.base import Clip, GenerationContext, Prediction, TurnContext
from studio.engines.catalog.sketch import SketchSettings
from studio.engines.sketch import SketchEngine

FIXTURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "animegamer"
DEMO_FILE = FIXTURES / "game_demo" / "demo.txt"
SMALL = {"height": 32, "width": 48, "frames": 2, "fps": 8}
MEDIUM = {"height": 64, "width": 96, "frames": 4, "fps": 8}


def options(settings: Mapping[str, Any] | None = None) -> SketchSettings:
    return SketchSettings.from_values(dict(settings if settings is not None else MEDIUM))


def predict(engine: SketchEngine, text: str, seed: int = 0, settings: Mapping[str, Any] | None = None,
            **kw: Any) -> Prediction:
    return engine.predict(GenerationContext(**kw), parse_instruction(text), options(settings), seed)


def render(engine: SketchEngine, text: str, seed: int = 0, settings: Mapping[str, Any] | None = None,
           **kw: Any) -> tuple[Prediction, Clip]:
    pred = predict(engine, text, seed, settings, **kw)
    return pred, engine.decode(pred, options(settings), seed)


START = CharacterState()


def as_turn(pred: Prediction, text: str, state: CharacterState = START) -> TurnContext:
    return TurnContext(instruction=parse_instruction(text), state=state, deltas=pred.deltas,
                       motion_level=pred.motion_level, representation=pred.representation,
                       conditioning=pred.conditioning)
