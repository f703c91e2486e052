"""The engine protocol (v2), shared by every engine and by the worker that runs them.

Generation has two stages, as in AnimeGamer, so that the cheap prediction (the next state
and the clip's action-aware representation) can be shown before the clip is decoded::

    engine = EngineClass(config)                      # cheap: no weights yet
    engine.load(progress, cancelled)                  # weights onto the configured devices
    engine.predict(context, instruction, settings, seed, progress, cancelled) -> Prediction
    engine.decode(prediction, settings, seed, progress, cancelled) -> Clip
    engine.unload()                                   # frees everything load took

What an engine is and needs (:class:`EngineInfo`) is known without importing it; see
``studio.engines.info``. Optional features are declared in its capabilities:
``decode_many`` (batched decode) and preview frames in decode's progress events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.core.errors import StudioError
from studio.core.instruction import Instruction
from studio.core.progress import (
    CancelCheck,
    Cancelled,
    Progress,
    ProgressCallback,
    check_cancelled,
    never_cancelled,
    no_progress,
)
from studio.core.state import MOTION_LEVEL_MAX, MOTION_LEVEL_MIN, StateDeltas
from studio.engines.config import DType, EngineConfig, Placement
from studio.engines.context import GenerationContext, PreviousClip, TurnContext
from studio.engines.info import (
    CheckpointFile,
    DeviceKind,
    EngineCapabilities,
    EngineInfo,
    EngineVocabulary,
    RepresentationSpec,
    Stage,
    StageNeeds,
)
from studio.engines.requirements import Requirement, RequirementKind
from studio.engines.settings import EngineSettings, Preset, SettingsError, SettingSpec, setting

if TYPE_CHECKING:  # numpy is imported when frames are made, not when the window opens
    import numpy as np

__all__ = [
    "CancelCheck",
    "Cancelled",
    "CheckpointFile",
    "Clip",
    "DType",
    "DeviceKind",
    "Engine",
    "EngineCapabilities",
    "EngineConfig",
    "EngineError",
    "EngineFactory",
    "EngineInfo",
    "EngineLoadError",
    "EngineSettings",
    "EngineVocabulary",
    "GenerationContext",
    "Placement",
    "Prediction",
    "Preset",
    "PreviousClip",
    "Progress",
    "ProgressCallback",
    "RepresentationSpec",
    "Requirement",
    "RequirementKind",
    "SettingSpec",
    "SettingsError",
    "Stage",
    "StageNeeds",
    "TurnContext",
    "check_cancelled",
    "generator_seed",
    "never_cancelled",
    "no_progress",
    "setting",
]


def generator_seed(seed: int) -> int:
    """``seed`` as a torch generator takes it: any whole number, wrapped into 0 .. 2**64 - 1
    (``manual_seed`` refuses others with an overflow error; it already reads -1 as 2**64 - 1,
    so every seed it accepted keeps its noise)."""
    return int(seed) % 2**64


class EngineError(StudioError):
    """An engine that can't run: missing checkpoint files, unsupported device, bad input."""


class EngineLoadError(EngineError):
    """The engine's weights or libraries could not be loaded (the message names the path)."""


@dataclass(frozen=True, slots=True)
class Prediction:
    """The predicted next game state and the clip's representation.

    ``representation`` has the shape and dtype of the engine's
    :class:`~studio.engines.info.RepresentationSpec`. ``conditioning`` holds JSON-able,
    engine-specific values that ``decode`` needs (for the sketch engine: the resolved
    motion, location, camera and pose); it is stored with the take so that a later turn
    can continue from it.
    """

    deltas: StateDeltas
    motion_level: int
    representation: np.ndarray
    warnings: tuple[str, ...] = ()
    conditioning: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not MOTION_LEVEL_MIN <= self.motion_level <= MOTION_LEVEL_MAX:
            raise ValueError(f"motion level {self.motion_level} is outside 1..5")


@dataclass(frozen=True, slots=True)
class Clip:
    """Decoded frames, uint8, shape T x H x W x 3."""

    frames: np.ndarray
    fps: float

    def __post_init__(self) -> None:
        import numpy as np

        f = self.frames
        if f.dtype != np.uint8 or f.ndim != 4 or f.shape[-1] != 3 or f.shape[0] < 1:
            raise ValueError(f"clip frames must be uint8 T x H x W x 3, got {f.dtype} {f.shape}")
        if self.fps <= 0:
            raise ValueError(f"fps must be positive, got {self.fps}")

    @property
    def frame_count(self) -> int:
        return int(self.frames.shape[0])

    @property
    def size(self) -> tuple[int, int]:
        """(height, width)"""
        return int(self.frames.shape[1]), int(self.frames.shape[2])

    @property
    def duration(self) -> float:
        return self.frame_count / self.fps


@runtime_checkable
class Engine(Protocol):
    """A generation engine. Constructed with an :class:`EngineConfig`; nothing heavy
    happens before :meth:`load`."""

    info: EngineInfo

    @property
    def loaded(self) -> bool: ...

    def load(self, progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> None:
        """Load weights onto the configured devices. Idempotent; a cancelled load raises
        :class:`Cancelled` within one step and leaves nothing allocated."""

    def unload(self) -> None:
        """Free everything :meth:`load` took (on CUDA, allocated memory returns to its level
        before ``load``). Idempotent."""

    def predict(
        self,
        context: GenerationContext,
        instruction: Instruction,
        settings: EngineSettings,
        seed: int,
        progress: ProgressCallback = no_progress,
        cancelled: CancelCheck = never_cancelled,
    ) -> Prediction: ...

    def decode(
        self,
        prediction: Prediction,
        settings: EngineSettings,
        seed: int,
        progress: ProgressCallback = no_progress,
        cancelled: CancelCheck = never_cancelled,
    ) -> Clip: ...


@runtime_checkable
class BatchDecoder(Protocol):
    """Engines whose capabilities declare ``batched_decode`` also have this."""

    def decode_many(
        self,
        predictions: Sequence[Prediction],
        settings: EngineSettings,
        seeds: Sequence[int],
        progress: ProgressCallback = no_progress,
        cancelled: CancelCheck = never_cancelled,
    ) -> list[Clip]: ...


EngineFactory = Callable[[EngineConfig], Engine]
