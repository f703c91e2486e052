"""What an engine can do and needs: devices, memory per stage, its representation, files.

Plain data shared by the engine's info, its configuration and its checks (kept apart from
``info`` so that those import it without importing each other).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

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
