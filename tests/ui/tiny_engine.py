"""A tiny deterministic engine for GUI tests when the sketch engine isn't installed.

Frames are flat colours derived from the seed with a moving bar, so posters differ
between takes; ``delay_s`` slows each step so tests can catch jobs queued or running.
"""

from __future__ import annotations

import time

import numpy as np

from studio.core.instruction import Instruction
from studio.core.state import StateDeltas
from studio.engines.base import (
    CancelCheck,
    Clip,
    EngineCapabilities,
    EngineRegistry,
    GenerationContext,
    Prediction,
    Progress,
    ProgressCallback,
    check_cancelled,
    never_cancelled,
    no_progress,
)


class TinyEngine:
    name = "tiny"
    version = "1"
    capabilities = EngineCapabilities(default_size=(48, 72), default_frames=4, default_fps=8.0)

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self._loaded = False

    def load(self, device: str = "cpu") -> None:
        self._loaded = True

    def unload(self) -> None:
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    def predict(self, context: GenerationContext, instruction: Instruction, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        check_cancelled(cancelled)
        time.sleep(self.delay_s)
        rng = np.random.default_rng(seed)
        deltas = StateDeltas(*(int(v) for v in rng.integers(-3, 4, size=3)))
        size = (int(context.settings.get("height", 48)), int(context.settings.get("width", 72)))
        frames = int(context.settings.get("frames", 4))
        progress(Progress(1, 1, "predicted"))
        return Prediction(deltas, int(rng.integers(1, 6)), np.zeros((4, 8), np.float32),
                          conditioning={"size": list(size), "frames": frames})

    def decode(self, prediction: Prediction, seed: int, progress: ProgressCallback = no_progress,
               cancelled: CancelCheck = never_cancelled) -> Clip:
        h, w = prediction.conditioning.get("size", [48, 72])
        count = int(prediction.conditioning.get("frames", 4))
        rng = np.random.default_rng(seed)
        color = rng.integers(40, 255, size=3).astype(np.uint8)
        frames = np.empty((count, h, w, 3), np.uint8)
        for index in range(count):
            check_cancelled(cancelled)
            time.sleep(self.delay_s)
            frames[index] = color
            x = int((index + 1) * w / (count + 1))
            frames[index, :, max(0, x - 3):x + 3] = 255
            progress(Progress(index + 1, count, "decoding"))
        return Clip(frames, 8.0)


def tiny_registry(delay_s: float = 0.0, name: str = "sketch") -> EngineRegistry:
    registry = EngineRegistry()
    registry.register(name, lambda: TinyEngine(delay_s))
    return registry
