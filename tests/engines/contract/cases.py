"""Each engine's tiny configuration for the contract suite.

Every engine the app registers must have a case here (a test checks it), so that a new
engine cannot skip the suite. A case gives tiny settings (small clips, few steps) and
prepares a checkpoints folder with what the engine loads (tiny random weights for real
models, as diffusers' pipeline tests do).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from studio.engines.base import Engine, EngineConfig, EngineFactory, EngineInfo

from .heavy_engine import INFO as HEAVY_INFO
from .heavy_engine import HeavyEngine, write_weights


def _no_checkpoints(_folder: Path) -> None:
    """Engines without weights need nothing in the folder."""


@dataclass(frozen=True)
class EngineCase:
    info: EngineInfo
    settings: Mapping[str, Any]
    prepare: Callable[[Path], None] = _no_checkpoints
    """Fill ``<checkpoints>/<engine name>/`` with the tiny weights."""
    factory: EngineFactory | None = None
    """None: the entry point the info names (as the app does)."""
    instructions: tuple[str, str] = ("Character: Qiqi; Motion: run; Background: day town.",
                                     "Character: Qiqi; Motion: wave; Background: day town.")
    extra: Mapping[str, Any] = field(default_factory=dict)


def _sketch() -> EngineCase:
    from studio.engines.catalog.sketch import INFO

    return EngineCase(INFO, {"height": 32, "width": 48, "frames": 3, "fps": 6.0})


def _mini() -> EngineCase:
    import pytest

    for package in ("torch", "transformers", "diffusers", "tokenizers"):
        pytest.importorskip(package)
    from studio.engines.catalog.mini import INFO
    from studio.engines.mini.tiny import write_tiny_checkpoint

    return EngineCase(INFO, {"height": 32, "width": 48, "frames": 3, "fps": 6.0, "steps": 2},
                      prepare=lambda folder: write_tiny_checkpoint(folder / INFO.name) and None)


def _heavy() -> EngineCase:
    return EngineCase(HEAVY_INFO, {"height": 16, "width": 24, "frames": 3, "fps": 12.0, "steps": 3},
                      prepare=lambda folder: write_weights(folder / HEAVY_INFO.name), factory=HeavyEngine)


def _animegamer() -> EngineCase:
    """AnimeGamer with tiny random weights of the released structure, converted from the
    release's file formats; ``TEST_INFO`` lets them run on the CPU (the app's ``INFO`` never does)."""
    from studio.engines.animegamer.engine import AnimeGamerEngine
    from studio.engines.catalog.animegamer import TEST_INFO

    from ..animegamer.tiny import tiny_checkpoints

    def factory(config: EngineConfig) -> Engine:
        return AnimeGamerEngine(config, info=TEST_INFO)

    return EngineCase(TEST_INFO, {"height": 32, "width": 48, "frames": 9, "steps": 2, "history_window": 2},
                      prepare=tiny_checkpoints, factory=factory)


def _customx() -> EngineCase:
    """CustomX with tiny random weights of the released structure and word-level stand-in
    tokenizers; ``TEST_INFO`` lets them run on the CPU (the app's ``INFO`` never does)."""
    import pytest

    for package in ("torch", "transformers", "diffusers", "tokenizers"):
        pytest.importorskip(package)
    from studio.engines.catalog.customx import TEST_INFO
    from studio.engines.customx.engine import CustomXEngine
    from studio.engines.customx.tiny import write_tiny_checkpoints

    def factory(config: EngineConfig) -> Engine:
        return CustomXEngine(config, info=TEST_INFO)

    return EngineCase(TEST_INFO, {"height": 32, "width": 48, "frames": 9, "steps": 2, "continuation_frames": 5,
                                  "vae_tiling": False},
                      prepare=lambda folder: write_tiny_checkpoints(folder) and None, factory=factory)


CASES: dict[str, Callable[[], EngineCase]] = {
    "sketch": _sketch,
    "mini": _mini,
    "heavy": _heavy,
    "animegamer": _animegamer,
    "customx": _customx,
}
