"""CPU thread counts beyond this machine (``kamishibai eval mini --threads 100000``, an
EngineConfig made in code): more threads than cores never help, and far more make OpenMP fail
to create them and abort the process, so the engine uses at most the cores it may run on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.engines.base import EngineConfig  # noqa: E402
from studio.engines.mini.engine import MiniEngine, default_threads, usable_threads  # noqa: E402

CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@pytest.mark.parametrize("requested", [100_000, 10**9])
def test_far_more_threads_than_cores_are_capped(tiny: Path, requested: int) -> None:
    engine = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=requested))
    assert 1 <= engine.threads <= CORES
    engine.load()
    assert torch.get_num_threads() <= CORES


@pytest.mark.parametrize("requested", [0, -3, None])
def test_no_or_a_negative_thread_count_means_the_default(requested: int | None) -> None:
    assert MiniEngine(EngineConfig(threads=requested)).threads == usable_threads(None) == min(default_threads(), CORES)


def test_a_count_within_the_cores_is_kept() -> None:
    assert MiniEngine(EngineConfig(threads=1)).threads == 1
