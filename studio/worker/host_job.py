"""What the worker sends an engine host, and what the host sends back.

Everything here is plain, frozen data that pickles: a host may run in a child process
(:mod:`studio.worker.engine_process`), where it gets a job and returns a result over a
pipe between our own two processes. The context is built by the parent (it reads the
document); the host only runs the engine and writes the take's files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from studio.core.instruction import Instruction
from studio.core.progress import Progress
from studio.core.state import StateDeltas
from studio.engines.base import GenerationContext

if TYPE_CHECKING:  # imported by the window: numpy comes with an engine
    import numpy as np


@dataclass(frozen=True)
class HostJob:
    """One generation for a host: the engine, its inputs, and where its files go.

    ``media_dir`` is the take's folder relative to the project, ``media_root`` the
    project folder it is relative to; the host writes into ``media_root / media_dir``.
    """

    engine: str
    context: GenerationContext
    instruction: Instruction
    settings: dict[str, Any]
    seed: int
    take_id: str
    node_id: str
    media_root: Path
    media_dir: str


@dataclass(frozen=True)
class HostPrediction:
    """The part of an engine's prediction the worker keeps (JSON-safe conditioning)."""

    deltas: StateDeltas
    motion_level: int
    warnings: tuple[str, ...]
    conditioning: dict[str, Any]
    representation: np.ndarray
    space: str


@dataclass(frozen=True)
class MediaFile:
    """A file a host wrote: its path relative to the project, size and SHA-256."""

    path: str
    size: int
    sha256: str


@dataclass(frozen=True)
class HostResult:
    """A finished generation: the prediction and the three files, all written."""

    prediction: HostPrediction
    representation: MediaFile
    clip: MediaFile
    poster: MediaFile
    engine_version: str
    timings: dict[str, float] = field(default_factory=dict)
    ran_on: str = ""
    """Where the job ran, when the host can say more than its device (a cluster's actor:
    its number, process, node and Ray actor id)."""

    @property
    def files(self) -> tuple[MediaFile, MediaFile, MediaFile]:
        return (self.representation, self.clip, self.poster)


class HostListener(Protocol):
    """What a host tells the worker while a job runs (on the worker's thread)."""

    def progress(self, stage: str, progress: Progress) -> None: ...

    def loaded(self, seconds: float) -> None: ...

    def predicted(self, prediction: HostPrediction) -> None: ...
