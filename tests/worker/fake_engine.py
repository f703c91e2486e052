"""A scriptable engine for worker tests.

A :class:`FakeScript` is shared by every engine a registry creates, so a test can change
the behaviour between jobs and read what the engines saw. Behaviour can also be chosen
per turn with words in the instruction: ``[fail]``, ``[oom]``, ``[oom-runtime]``,
``[slow]`` (per-step sleep of ``slow_sleep``), ``[block]`` (waits for ``release``).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np

from studio.core.instruction import Instruction
from studio.core.state import StateDeltas
from studio.engines.base import (
    CancelCheck,
    Clip,
    EngineCapabilities,
    EngineConfig,
    EngineInfo,
    EngineLoadError,
    EngineSettings,
    GenerationContext,
    Prediction,
    Progress,
    ProgressCallback,
    RepresentationSpec,
    check_cancelled,
    never_cancelled,
    no_progress,
    setting,
)
from studio.engines.registry import EngineRegistry


@dataclass(frozen=True, slots=True)
class FakeSettings(EngineSettings):
    ENGINE = "Fake"

    height: int = setting(16, label="Height", minimum=8, maximum=256)
    width: int = setting(24, label="Width", minimum=8, maximum=256)
    frames: int = setting(3, label="Frames", minimum=1, maximum=64)
    fps: float = setting(8.0, label="FPS", minimum=1.0, maximum=60.0)
    history_window: int = setting(8, label="History", minimum=0, maximum=64)


class OutOfMemoryError(RuntimeError):
    """Named like ``torch.cuda.OutOfMemoryError`` (the worker matches the class name)."""


@dataclass
class FakeScript:
    predict_steps: int = 3
    decode_steps: int = 4
    step_sleep: float = 0.0
    slow_sleep: float = 0.05
    frames: int = 3
    height: int = 16
    width: int = 24
    fps: float = 8.0
    load_error: str = ""
    fail_on: set[str] = field(default_factory=set)
    oom_on: set[str] = field(default_factory=set)
    load_steps: int = 1
    representation_shape: tuple[int, int] = (4, 8)
    release: threading.Event = field(default_factory=threading.Event)
    started: threading.Event = field(default_factory=threading.Event)
    # what happened
    calls: list[tuple[str, str, int]] = field(default_factory=list)
    contexts: list[tuple[str, GenerationContext]] = field(default_factory=list)
    settings_seen: list[FakeSettings] = field(default_factory=list)
    loads: int = 0
    unloads: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, stage: str, raw: str, seed: int) -> None:
        with self.lock:
            self.calls.append((stage, raw, seed))

    def order(self, stage: str = "predict") -> list[str]:
        return [raw for s, raw, _ in self.calls if s == stage]


def fake_info(script: FakeScript, name: str = "fake", space: str = "") -> EngineInfo:
    return EngineInfo(
        name=name, version="fake-1", label=name.title(), description="test engine",
        capabilities=EngineCapabilities(
            history_window=8, default_size=(16, 24), default_frames=3, default_fps=8.0,
            representation=RepresentationSpec(space or f"{name}/4x8", script.representation_shape),
        ),
        settings=FakeSettings, entry_point="tests.worker.fake_engine:FakeEngine",
    )


class FakeEngine:
    def __init__(self, config: EngineConfig, script: FakeScript, info: EngineInfo) -> None:
        self.config = config
        self.info = info
        self.name = info.name
        self.script = script
        self._loaded = False

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        if self.script.load_error:
            raise EngineLoadError(f"Missing checkpoint {self.script.load_error}.",
                                  hint="Download the weights into that folder.")
        if self._loaded:
            return
        for step in range(self.script.load_steps):
            check_cancelled(cancelled)
            if self.script.step_sleep:
                time.sleep(self.script.step_sleep)
            progress(Progress(step + 1, self.script.load_steps, "loading"))
        self.script.loads += 1
        self._loaded = True

    def unload(self) -> None:
        if self._loaded:
            self.script.unloads += 1
        self._loaded = False

    @property
    def loaded(self) -> bool:
        return self._loaded

    def _steps(self, raw: str, count: int, progress: ProgressCallback, cancelled: CancelCheck) -> None:
        sleep = self.script.slow_sleep if "[slow]" in raw else self.script.step_sleep
        for step in range(count):
            check_cancelled(cancelled)
            if "[block]" in raw:
                self.script.started.set()
                while not self.script.release.wait(0.005):
                    check_cancelled(cancelled)
            if sleep:
                time.sleep(sleep)
            progress(Progress(step + 1, count))
        check_cancelled(cancelled)

    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        raw = instruction.raw
        self.script.record("predict", raw, seed)
        with self.script.lock:
            self.script.contexts.append((raw, context))
            self.script.settings_seen.append(FakeSettings.coerce(settings))
        if "[oom]" in raw or raw in self.script.oom_on:
            raise OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")
        if "[oom-runtime]" in raw:
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total)")
        if "[fail]" in raw or raw in self.script.fail_on:
            raise ValueError(f"the fake engine was told to fail on {raw!r}")
        self._steps(raw, self.script.predict_steps, progress, cancelled)
        rng = np.random.default_rng(seed)
        return Prediction(
            deltas=StateDeltas.clamped(*rng.integers(-2, 3, size=3)),
            motion_level=int(rng.integers(1, 6)),
            representation=rng.standard_normal(self.script.representation_shape).astype(np.float32),
            warnings=("fake warning",) if "[warn]" in raw else (),
            conditioning={"raw": raw, "seed": seed, "pose": np.int64(seed % 7)},
        )

    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        options = FakeSettings.coerce(settings)
        raw = str(prediction.conditioning.get("raw", ""))
        self.script.record("decode", raw, seed)
        self._steps(raw, self.script.decode_steps, progress, cancelled)
        value = seed % 251
        data = np.full((options.frames, options.height, options.width, 3), value, dtype=np.uint8)
        for index in range(options.frames):
            data[index, :, : index + 1] = 255
        return Clip(frames=data, fps=options.fps)


def fake_registry(script: FakeScript, *names: str, spaces: dict[str, str] | None = None) -> EngineRegistry:
    """Fake engines by name; ``spaces`` gives some of them another representation space."""
    registry = EngineRegistry()
    for name in names or ("fake",):
        info = fake_info(script, name, (spaces or {}).get(name, ""))
        registry.register(info, lambda config, info=info: FakeEngine(config, script, info))
    return registry
