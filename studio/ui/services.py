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
from typing import TYPE_CHECKING

from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.storage import Project

if TYPE_CHECKING:
    from studio.ui.drawn_pictures import PictureDrawer

ProjectMaker = Callable[[str | os.PathLike[str], str | None], Project]
SampleMaker = Callable[[str | os.PathLike[str]], Project]


@dataclass(frozen=True)
class AppServices:
    registry: EngineRegistry
    default_engine: str
    create_project: ProjectMaker
    create_sample_project: SampleMaker
    checkpoints: Path = Path("checkpoints")
    engine_host: str = "process"
    """Where engines run: ``process`` (a child process per device) or ``in-process`` (tests
    whose engines live in the test's memory)."""
    pictures: PictureDrawer | None = None
    """Draws the characters and places that have no picture of their own for the Cast & world
    lists (None: they show a plain icon)."""

    def engine_config(self, device: str, checkpoint_dirs: Sequence[Path] = (), *,
                      threads: int | None = None) -> EngineConfig:
        """The engines' configuration for a device string from the settings (``cpu``,
        ``cuda:0``, ``predict=cuda:0,decode=cuda:1``), the checkpoints folders to look in
        (default: the app's own) and the CPU threads of each engine process (None: automatic,
        all cores but one, shared out when several devices run at once)."""
        return EngineConfig.parse(device or "cpu", checkpoints=list(checkpoint_dirs) or [self.checkpoints],
                                  threads=threads)

    def device_configs(self, devices: str, device: str, checkpoint_dirs: Sequence[Path] = (), *,
                       threads: int | None = None) -> list[EngineConfig]:
        """One configuration per worker: ``devices`` (``cpu,cuda:0,cuda:1``; a worker's
        stages as ``predict=cuda:0;decode=cuda:1``), else the one ``device``; each with
        ``threads`` CPU threads."""
        items = [item.strip().replace(";", ",") for item in devices.split(",") if item.strip()]
        return [self.engine_config(item, checkpoint_dirs, threads=threads) for item in items or [device]]
