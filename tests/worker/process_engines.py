"""Engines for tests that run them in an engine process (a spawned child).

The child rebuilds this registry from ``registry``'s source name, so nothing here can be
shared with the test in memory: behaviour is chosen by words in the instruction.
``[hold]`` makes predict and decode take many slow steps (``[hold-predict]``,
``[hold-decode]``: only that stage), so a test can kill or cancel the process in it;
``[pace]`` makes each stage take ``PACE_STEPS`` such steps; ``[big]`` decodes a clip
large enough that encoding it takes a while (so a test can kill the process in the
media write); ``[gil]`` holds the GIL in a pure Python loop for ``GIL_SECONDS`` per
turn; ``[stuck]`` makes predict sleep for ``STUCK_SECONDS`` without looking at its cancel
check (a call into a driver that never returns); ``[fail]`` raises. Each prediction's
conditioning says which process made it, how often it loaded, and the thread budget it was
given.
"""

from __future__ import annotations

import os
import time

import numpy as np

from studio.core.instruction import Instruction
from studio.core.state import StateDeltas
from studio.engines.base import (
    CancelCheck,
    Clip,
    EngineCapabilities,
    EngineConfig,
    EngineInfo,
    EngineSettings,
    GenerationContext,
    Prediction,
    Progress,
    ProgressCallback,
    RepresentationSpec,
    check_cancelled,
    never_cancelled,
    no_progress,
)
from studio.engines.registry import EngineRegistry

from .fake_engine import FakeSettings

HOLD_STEPS = 400
HOLD_SLEEP = 0.02
PACE_STEPS = 15
GIL_SECONDS = 2.0
STUCK_SECONDS = 300.0
LOADS = {"count": 0}


def spin(seconds: float, cancelled: CancelCheck) -> None:
    """Hold the GIL: a pure Python loop, no sleeping, no C calls that release it."""
    end = time.perf_counter() + seconds
    total = 0
    while time.perf_counter() < end:
        for i in range(2000):
            total += i * i
        if cancelled():
            break


class ProcessFakeEngine:
    def __init__(self, config: EngineConfig, info: EngineInfo) -> None:
        self.config = config
        self.info = info
        self._loaded = False

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        if not self._loaded:
            LOADS["count"] += 1
            progress(Progress(1, 1, "loading"))
        self._loaded = True

    def unload(self) -> None:
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    def _steps(self, stage: str, raw: str, progress: ProgressCallback, cancelled: CancelCheck) -> None:
        hold = "[hold]" in raw or f"[hold-{stage}]" in raw
        paced = hold or "[pace]" in raw
        count = HOLD_STEPS if hold else PACE_STEPS if paced else 2
        for step in range(count):
            check_cancelled(cancelled)
            if paced:
                time.sleep(HOLD_SLEEP)
            progress(Progress(step + 1, count))
        check_cancelled(cancelled)

    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        raw = instruction.raw
        if "[fail]" in raw:
            raise ValueError(f"told to fail on {raw!r}")
        if "[gil]" in raw:
            spin(GIL_SECONDS / 2, cancelled)
        if "[stuck]" in raw:
            progress(Progress(0, 1, "stuck"))
            time.sleep(STUCK_SECONDS)
        self._steps("predict", raw, progress, cancelled)
        rng = np.random.default_rng(seed)
        return Prediction(
            deltas=StateDeltas.clamped(*rng.integers(-2, 3, size=3)), motion_level=int(rng.integers(1, 6)),
            representation=rng.standard_normal((4, 8)).astype(np.float32),
            conditioning={"raw": raw, "pid": os.getpid(), "loads": LOADS["count"], "threads": self.config.threads,
                          "omp_threads": os.environ.get("OMP_NUM_THREADS", "")},
        )

    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        options = FakeSettings.coerce(settings)
        raw = str(prediction.conditioning.get("raw", ""))
        if "[gil]" in raw:
            spin(GIL_SECONDS / 2, cancelled)
        self._steps("decode", raw, progress, cancelled)
        if "[big]" in raw:
            noise = np.random.default_rng(seed).integers(0, 256, size=(96, 480, 640, 3), dtype=np.uint8)
            return Clip(frames=noise, fps=24.0)
        data = np.full((options.frames, options.height, options.width, 3), seed % 251, dtype=np.uint8)
        return Clip(frames=data, fps=options.fps)


def process_info(name: str = "fake") -> EngineInfo:
    return EngineInfo(
        name=name, version="proc-1", label=name.title(), description="test engine for engine processes",
        capabilities=EngineCapabilities(history_window=8, default_size=(16, 24), default_frames=3, default_fps=8.0,
                                        representation=RepresentationSpec(f"{name}/4x8", (4, 8))),
        settings=FakeSettings, entry_point=f"{__name__}:ProcessFakeEngine",
    )


def registry() -> EngineRegistry:
    """The registry a child process rebuilds (by this function's name)."""
    built = EngineRegistry(source=f"{__name__}:registry")
    for name in ("fake", "other"):
        info = process_info(name)
        built.register(info, lambda config, info=info: ProcessFakeEngine(config, info))
    return built
