"""A fake heavy engine: what a real model looks like to the studio, at toy size on the CPU.

It loads weights from a safetensors file in its checkpoints folder in several steps (with
progress and cancel), holds memory that ``unload`` frees, reads its own earlier
representations (of another space than sketch's), decodes in denoising steps with
preview frames, and decodes several predictions in one batched pass.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from studio.core.instruction import Instruction
from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled, never_cancelled, no_progress
from studio.core.state import StateDeltas
from studio.engines.base import (
    CheckpointFile,
    Clip,
    DeviceKind,
    EngineCapabilities,
    EngineConfig,
    EngineInfo,
    EngineLoadError,
    EngineSettings,
    GenerationContext,
    Prediction,
    Preset,
    RepresentationSpec,
    Stage,
    StageNeeds,
    setting,
)
from studio.engines.info import MIB
from studio.engines.requirements import Requirement, check_devices, check_files

NAME = "heavy"
WEIGHTS = CheckpointFile("weights.safetensors", size=None, description="toy denoiser weights")
LOAD_STEPS = 4
TOKENS, WIDTH = 8, 32


@dataclass(frozen=True, slots=True)
class HeavySettings(EngineSettings):
    ENGINE = "Heavy"
    PRESETS = (
        Preset("reference", "Reference", {"steps": 6}),
        Preset("fast", "Fast", {"steps": 2}, changes_output=True, help="Fewer denoising steps."),
    )

    height: int = setting(24, label="Height", minimum=8, maximum=128, step=8)
    width: int = setting(40, label="Width", minimum=8, maximum=128, step=8)
    frames: int = setting(5, label="Frames", minimum=1, maximum=33)
    fps: float = setting(8.0, label="FPS", minimum=1.0, maximum=30.0)
    steps: int = setting(6, label="Denoising steps", minimum=1, maximum=50)
    guidance: float = setting(6.0, label="Guidance", minimum=1.0, maximum=12.0, advanced=True)


def check(config: EngineConfig) -> list[Requirement]:
    folder = config.engine_folder(NAME)
    return [*check_files(folder, (WEIGHTS,), engine=NAME), *check_devices(config, INFO.capabilities, engine=NAME)]


INFO = EngineInfo(
    name=NAME, version="heavy-1", label="Heavy (test)", description="A toy stand-in for a big GPU model.",
    capabilities=EngineCapabilities(
        devices=(DeviceKind.CPU, DeviceKind.CUDA),
        memory={Stage.PREDICT: StageNeeds(device_bytes=64 * MIB, host_bytes=8 * MIB),
                Stage.DECODE: StageNeeds(device_bytes=96 * MIB, host_bytes=8 * MIB)},
        history_window=2, default_size=(24, 40), default_frames=5, default_fps=8.0,
        representation=RepresentationSpec("heavy/8x32-v1", (TOKENS, WIDTH)),
        batched_decode=True, preview_frames=True, continuation=True,
    ),
    settings=HeavySettings, entry_point="tests.engines.contract.heavy_engine:HeavyEngine", check=check,
    checkpoints=(WEIGHTS,), license="Test weights: no license needed.",
)


def write_weights(folder: Path, seed: int = 0) -> Path:
    """The toy checkpoint: one safetensors file with a projection and a palette."""
    from safetensors.numpy import save_file

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / WEIGHTS.path
    save_file({"proj": rng.standard_normal((WIDTH, 3)).astype(np.float32),
               "buffer": np.zeros((LOAD_STEPS, 256, 1024), dtype=np.float32)}, str(path))
    return path


class HeavyEngine:
    info = INFO

    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.step_sleep = 0.0
        self._weights: dict[str, np.ndarray] = {}
        self._blocks: list[np.ndarray] = []
        self.last_context: GenerationContext | None = None

    @property
    def loaded(self) -> bool:
        return bool(self._weights)

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        if self.loaded:
            return
        from safetensors import safe_open

        path = self.config.engine_folder(NAME) / WEIGHTS.path
        if not path.is_file():
            raise EngineLoadError(f"Missing {path}.", hint="Run kamishibai doctor.")
        try:
            with safe_open(str(path), framework="numpy") as handle:
                buffer = handle.get_tensor("buffer")
                proj = handle.get_tensor("proj")
                for step in range(LOAD_STEPS):
                    check_cancelled(cancelled)
                    if self.step_sleep:
                        time.sleep(self.step_sleep)
                    self._blocks.append(buffer[step].copy())  # "moving a block to the device"
                    progress(Progress(step + 1, LOAD_STEPS, f"loading block {step + 1}"))
        except BaseException:
            self.unload()
            raise
        self._weights = {"proj": proj}

    def unload(self) -> None:
        self._weights = {}
        self._blocks = []

    def _ready(self) -> np.ndarray:
        if not self.loaded:
            raise EngineLoadError("The heavy engine is not loaded.")
        return self._weights["proj"]

    def predict(self, context: GenerationContext, instruction: Instruction, settings: EngineSettings, seed: int,
                progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Prediction:
        self._ready()
        HeavySettings.coerce(settings)
        self.last_context = context
        check_cancelled(cancelled)
        rng = np.random.default_rng([seed, len(instruction.raw)])
        representation = rng.standard_normal((TOKENS, WIDTH)).astype(np.float32)
        progress(Progress(1, 2, "encoding the branch"))
        check_cancelled(cancelled)
        earlier = [t.representation for t in context.history if t.representation is not None]
        if earlier:  # reads its own space: the next clip continues the last one
            representation = (0.5 * representation + 0.5 * earlier[-1]).astype(np.float32)
        progress(Progress(2, 2, "predicted"))
        level = int(rng.integers(1, 6))
        return Prediction(deltas=StateDeltas.clamped(*rng.integers(-3, 4, size=3)), motion_level=level,
                          representation=representation, conditioning={"level": level})

    def decode(self, prediction: Prediction, settings: EngineSettings, seed: int,
               progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> Clip:
        return self.decode_many([prediction], settings, [seed], progress, cancelled)[0]

    def decode_many(self, predictions: Sequence[Prediction], settings: EngineSettings, seeds: Sequence[int],
                    progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> list[Clip]:
        proj = self._ready()
        options = HeavySettings.coerce(settings)
        if len(predictions) != len(seeds):
            raise ValueError("one seed per prediction")
        shape = (len(predictions), options.frames, options.height, options.width, 3)
        noise = np.stack([np.random.default_rng(seed).standard_normal(shape[1:]) for seed in seeds])
        colour = np.stack([p.representation.mean(axis=0) @ proj for p in predictions])  # (B, 3)
        target = np.broadcast_to(colour[:, None, None, None, :], shape)
        x = noise
        for step in range(options.steps):
            check_cancelled(cancelled)
            if self.step_sleep:
                time.sleep(self.step_sleep)
            x = x + (target - x) / (options.steps - step)
            frames = np.clip(127.5 + 40.0 * x, 0, 255).astype(np.uint8)
            progress(Progress(step + 1, options.steps, f"denoising {step + 1}/{options.steps}", preview=frames[0]))
        frames = np.clip(127.5 + 40.0 * x, 0, 255).astype(np.uint8)
        return [Clip(frames=np.ascontiguousarray(f), fps=options.fps) for f in frames]
