"""`kamishibai eval mini --steps 17` (its help says 1 to 64) times the engine at 17 steps
too, where the timing went through the engine's own setting (1 to 16) and the whole run,
its evaluation done, ended with "Mini setting 'steps' ... must be from 1 to 16, got 17."
The whole command takes minutes, so its last part, the timing, is run here on the shipped
checkpoint, and the steps that reach the model are counted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("torch")

from studio.cli.eval_cmds import MAX_EVAL_STEPS
from studio.engines.mini.report import time_turn
from studio.engines.mini.runtime import MiniRuntime

CHECKPOINTS = Path(__file__).resolve().parents[2] / "checkpoints"


def test_the_timing_runs_at_the_evaluations_steps_beyond_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert MAX_EVAL_STEPS >= 17
    seen: list[int] = []
    decode = MiniRuntime.decode

    def counted(self: MiniRuntime, *args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["steps"])
        return decode(self, *args, **kwargs)

    monkeypatch.setattr(MiniRuntime, "decode", counted)
    speed = time_turn(CHECKPOINTS, 17, 1, repeats=1)
    assert seen and set(seen) == {17}
    assert speed["studio"] > 0 and speed["native"] > 0
