"""The window's Automatic thread count is "all cores but one" of the cores the studio may run
on (QA 4: it counted the machine's cores, so in a container or under ``taskset`` allowing fewer
cores than the machine has, the engine took every core it was allowed and left the window none)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")

from studio.engines.base import EngineConfig
from studio.engines.config import usable_cores
from studio.engines.mini.engine import MiniEngine, default_threads


@pytest.mark.parametrize("machine_cores", [8, 64])
def test_automatic_leaves_one_of_the_allowed_cores(monkeypatch: pytest.MonkeyPatch, machine_cores: int) -> None:
    allowed = usable_cores()
    monkeypatch.setattr(os, "cpu_count", lambda: machine_cores)  # a machine larger than this process's share
    assert default_threads() == max(1, allowed - 1)
    assert MiniEngine(EngineConfig()).threads == max(1, allowed - 1)


def test_a_chosen_count_is_still_kept_up_to_the_allowed_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert MiniEngine(EngineConfig(threads=usable_cores())).threads == usable_cores()
    assert MiniEngine(EngineConfig(threads=1)).threads == 1
