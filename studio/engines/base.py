"""The engine protocol, shared by every engine and by the worker that runs them.

Generation has two stages, as in AnimeGamer, so that the cheap prediction (the next state
and the clip's action-aware representation) can be shown before the clip is decoded::

    predict(context, instruction, seed, progress, cancelled) -> Prediction
    decode(prediction, seed, progress, cancelled) -> Clip
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from studio.core.errors import StudioError
from studio.core.instruction import Instruction
from studio.core.model import CastMember, Location
from studio.core.state import MOTION_LEVEL_MAX, MOTION_LEVEL_MIN, CharacterState, StateDeltas

if TYPE_CHECKING:  # numpy is imported when frames are made, not when the window opens
    import numpy as np


class Cancelled(Exception):  # noqa: N818 - it is an outcome, not a failure
    """Raised inside an engine when the job was cancelled; the worker records 'cancelled'."""


class EngineError(StudioError):
    """An engine that can't run: missing checkpoint files, unsupported device, bad settings."""


class EngineLoadError(EngineError):
    """The engine's weights or libraries could not be loaded (the message names the path)."""


@dataclass(frozen=True, slots=True)
class Progress:
    step: int
    total: int
    message: str = ""


ProgressCallback = Callable[[Progress], None]
CancelCheck = Callable[[], bool]


def no_progress(_: Progress) -> None:
    """A progress callback that ignores everything."""


def never_cancelled() -> bool:
    return False


def check_cancelled(cancelled: CancelCheck) -> None:
    """Call between engine steps: raises :class:`Cancelled` once the job is cancelled."""
    if cancelled():
        raise Cancelled()


@dataclass(frozen=True, slots=True)
class TurnContext:
    """One earlier turn of the branch, as an engine sees it."""

    instruction: Instruction
    state: CharacterState
    deltas: StateDeltas
    motion_level: int
    representation: np.ndarray | None = None
    conditioning: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GenerationContext:
    """What an engine knows when it generates a turn.

    ``history`` runs from the first turn to the parent of the turn being generated;
    ``state`` is the state the new turn starts from. Location image paths are absolute
    (resolved inside the project by storage before the engine sees them).
    """

    state: CharacterState = CharacterState()
    history: tuple[TurnContext, ...] = ()
    cast: tuple[CastMember, ...] = ()
    locations: tuple[Location, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Prediction:
    """The predicted next game state and the clip's representation.

    ``conditioning`` holds engine-specific values that ``decode`` needs (for the sketch
    engine: the resolved motion, location, camera and pose); it is stored with the take
    so that a later turn can continue from it.
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


@dataclass(frozen=True, slots=True)
class EngineCapabilities:
    devices: tuple[str, ...] = ("cpu",)
    needs_gpu: bool = False
    default_size: tuple[int, int] = (480, 720)
    default_frames: int = 17
    default_fps: float = 8.0
    multi_turn_history: bool = True
    description: str = ""


@dataclass(frozen=True, slots=True)
class EngineVocabulary:
    """Words an engine understands, offered by editors as completions."""

    motions: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    cameras: tuple[str, ...] = ()
    adverbs: tuple[str, ...] = ()


def engine_vocabulary(engine: object) -> EngineVocabulary:
    """The engine's vocabulary if it offers one (``vocabulary()`` is optional)."""
    offer = getattr(engine, "vocabulary", None)
    return offer() if callable(offer) else EngineVocabulary()


@runtime_checkable
class Engine(Protocol):
    name: str
    version: str
    capabilities: EngineCapabilities

    def load(self, device: str = "cpu") -> None: ...

    def unload(self) -> None: ...

    @property
    def loaded(self) -> bool: ...

    def predict(
        self,
        context: GenerationContext,
        instruction: Instruction,
        seed: int,
        progress: ProgressCallback = no_progress,
        cancelled: CancelCheck = never_cancelled,
    ) -> Prediction: ...

    def decode(
        self,
        prediction: Prediction,
        seed: int,
        progress: ProgressCallback = no_progress,
        cancelled: CancelCheck = never_cancelled,
    ) -> Clip: ...


EngineFactory = Callable[[], Engine]


class EngineRegistry:
    """Engines by name. The app's composition root registers the concrete engines."""

    def __init__(self) -> None:
        self._factories: dict[str, EngineFactory] = {}

    def register(self, name: str, factory: EngineFactory) -> None:
        self._factories[name] = factory

    def names(self) -> list[str]:
        return sorted(self._factories)

    def create(self, name: str) -> Engine:
        try:
            factory = self._factories[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            raise EngineError(f"Unknown engine {name!r}.", hint=f"Available engines: {known}.") from None
        return factory()
