"""What the application entry hands the window: the engines and how projects are made.

The window never names concrete engines or imports the composition root; the entry point
(``studio.cli``) builds an :class:`AppServices` from ``studio.composition`` and passes it
in, and tests pass their own (a fake engine, a temporary checkpoints folder).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.storage import Project

ProjectMaker = Callable[[str | os.PathLike[str], str | None], Project]
SampleMaker = Callable[[str | os.PathLike[str]], Project]


@dataclass(frozen=True)
class AppServices:
    registry: EngineRegistry
    default_engine: str
    create_project: ProjectMaker
    create_sample_project: SampleMaker
    checkpoints: Path = Path("checkpoints")

    def engine_config(self, device: str, checkpoint_dirs: Sequence[Path] = ()) -> EngineConfig:
        """The engines' configuration for a device string from the settings (``cpu``,
        ``cuda:0``, ``predict=cuda:0,decode=cuda:1``) and the checkpoints folders to look in
        (default: the app's own)."""
        return EngineConfig.parse(device or "cpu", checkpoints=list(checkpoint_dirs) or [self.checkpoints])
