"""What an engine is, needs and offers, known without importing it.

An :class:`EngineInfo` is plain data (plus two light callables): the app lists engines,
checks whether they can run, renders their settings form and offers their vocabulary
before any engine package (and torch with it) is imported. Each engine's info lives in
``studio.engines.catalog``; the engine package holds the implementation that
``entry_point`` names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

from studio.engines.settings import EngineSettings

if TYPE_CHECKING:
    from studio.engines.config import EngineConfig
    from studio.engines.requirements import Requirement

GIB = 1024**3
MIB = 1024**2


class Stage(StrEnum):
    """The two stages of a generation (AnimeGamer's): the cheap prediction, then the clip."""

    PREDICT = "predict"
    DECODE = "decode"


class DeviceKind(StrEnum):
    CPU = "cpu"
    CUDA = "cuda"


@dataclass(frozen=True, slots=True)
class StageNeeds:
    """Memory one stage needs while it runs (weights plus working memory), in bytes.

    ``device_bytes`` is accelerator memory when the stage is placed on one; when the stage
    runs on the CPU, or is offloaded, ``host_bytes`` is what it takes in RAM.
    """

    device_bytes: int = 0
    host_bytes: int = 0


@dataclass(frozen=True, slots=True)
class RepresentationSpec:
    """The action-aware representation an engine predicts and reads back.

    ``space`` names the representation space (which model made it and how to read it);
    engines receive earlier turns' representations only from their own space, so a
    (226, 64) sketch array is never fed to a model that expects (226, 1920).
    """

    space: str
    shape: tuple[int, ...]
    dtype: str = "float32"


@dataclass(frozen=True, slots=True)
class EngineVocabulary:
    """Words an engine understands, offered by editors as completions."""

    motions: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    cameras: tuple[str, ...] = ()
    adverbs: tuple[str, ...] = ()


def no_vocabulary() -> EngineVocabulary:
    return EngineVocabulary()


@dataclass(frozen=True, slots=True)
class CheckpointFile:
    """One weight or config file an engine loads, relative to its checkpoints folder."""

    path: str
    size: int | None = None
    """Exact size in bytes when known (released files); None when it varies."""
    description: str = ""


def _no_stage_needs() -> Mapping[Stage, StageNeeds]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class EngineCapabilities:
    """What an engine can do and what it needs. Optional protocol features are declared here."""

    devices: tuple[DeviceKind, ...] = (DeviceKind.CPU,)
    needs_gpu: bool = False
    memory: Mapping[Stage, StageNeeds] = field(default_factory=_no_stage_needs)
    history_window: int = 0
    """How many earlier turns of the branch the engine reads (0: only the parent's state)."""
    default_size: tuple[int, int] = (480, 720)
    """(height, width) of the clips it makes with its default settings."""
    default_frames: int = 17
    default_fps: float = 8.0
    representation: RepresentationSpec = RepresentationSpec("none", (0,))
    batched_decode: bool = False
    """The engine has ``decode_many`` (one batched pass for several takes)."""
    preview_frames: bool = False
    """Progress events of ``decode`` carry preview frames."""
    continuation: bool = False
    """The engine reads the previous take's clip (``GenerationContext.previous_clip``)."""
    reference_views: int = 0
    """Reference images each cast member needs (0: none)."""

    def needs(self, stage: Stage) -> StageNeeds:
        return self.memory.get(stage, StageNeeds())


def _no_requirements(_config: EngineConfig) -> list[Requirement]:
    return []


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """An engine's static description, registered without importing the engine.

    ``entry_point`` is ``"package.module:Class"``; the class is constructed with an
    :class:`~studio.engines.config.EngineConfig`. ``check`` and ``vocabulary`` must stay
    light: no torch import for engines that can't run anyway, no model loading.
    """

    name: str
    version: str
    label: str
    description: str
    capabilities: EngineCapabilities
    settings: type[EngineSettings]
    entry_point: str
    check: Callable[[EngineConfig], list[Requirement]] = _no_requirements
    vocabulary: Callable[[], EngineVocabulary] = no_vocabulary
    checkpoints: tuple[CheckpointFile, ...] = ()
    """Files under ``<checkpoints>/<name>/`` the engine loads (listed by the doctor)."""
    license: str = ""
    """The weights' license, named where the engine is chosen ("" for our own)."""
    draft: bool = False
    """A draft engine: instant, shown as 'Draft' in the picker."""
