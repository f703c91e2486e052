"""The mini engine's first load says what it does from its first moment. Before, importing the
engine module imported torch, transformers and diffusers (7 to 12 seconds on a laptop) before
``load`` could report anything, and a first job's bar stood still all that time. Now the
module imports without them; ``load`` reports the import as its first step, then the files."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")

from studio.core.progress import Progress
from studio.engines.base import EngineConfig
from studio.engines.mini.engine import IMPORTING, LOAD_LABELS, MiniEngine
from studio.engines.mini.runtime import MiniRuntime
from studio.worker.progress import DEFAULT_SECONDS, ProgressTracker

HEAVY = ("torch", "transformers", "diffusers", "safetensors", "tokenizers")


def _run(code: str) -> dict:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_engine_module_imports_without_torch() -> None:
    found = _run("import json, sys\n"
                 "import studio.engines.mini.engine as engine\n"
                 "engine.MiniEngine(engine.EngineConfig())  # making one loads nothing either\n"
                 f"print(json.dumps([name for name in {HEAVY!r} if name in sys.modules]))")
    assert found == []


def test_the_first_report_comes_before_torch_is_imported(tiny: Path) -> None:
    reports = _run("import json, sys\n"
                   "from studio.engines.base import EngineConfig\n"
                   "from studio.engines.mini.engine import MiniEngine\n"
                   "seen = []\n"
                   f"engine = MiniEngine(EngineConfig(checkpoints=__import__('pathlib').Path({str(tiny.parent)!r}),"
                   " threads=1))\n"
                   "engine.load(lambda p: seen.append([p.step, p.total, p.message, 'torch' in sys.modules]))\n"
                   "print(json.dumps(seen))")
    total = MiniEngine.load_steps()
    assert reports[0] == [0, total, IMPORTING, False]  # said before the import began
    assert reports[1][:2] == [1, total] and reports[1][3]  # the import is the first step done
    assert [r[0] for r in reports] == list(range(total + 1))
    assert [r[2] for r in reports[2:]] == [f"loading the {label}" for label in LOAD_LABELS]


def test_load_steps_are_the_import_and_the_runtimes_own() -> None:
    assert MiniEngine.load_steps() == 1 + MiniRuntime.load_steps() == 1 + len(LOAD_LABELS)


def test_a_loaded_engine_says_it_is_ready(tiny: Path) -> None:
    engine = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    engine.load()
    seen: list[Progress] = []
    engine.load(seen.append)
    assert [(p.step, p.total, p.message) for p in seen] == [(7, 7, "ready")]


def test_a_cancelled_load_stops_after_the_import_and_keeps_nothing(tiny: Path) -> None:
    from studio.core.progress import Cancelled

    engine = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    seen: list[Progress] = []
    with pytest.raises(Cancelled):
        engine.load(seen.append, lambda: bool(seen and seen[-1].step >= 1))
    assert not engine.loaded and [p.step for p in seen] == [0, 1]


def test_a_first_jobs_bar_moves_through_the_loads_reports(tiny: Path) -> None:
    """The tracker of a first job (nothing timed) fed with the real load's reports, as they
    come: the import's message is news at once, and each step after it moves the bar."""
    tracker = ProgressTracker({"load": 1.0, **DEFAULT_SECONDS})
    updates = []

    def report(progress: Progress) -> None:
        update = tracker.update("load", progress.step, progress.total, progress.message)
        if update is not None:
            updates.append(update)

    engine = MiniEngine(EngineConfig(checkpoints=tiny.parent, threads=1))
    began = time.perf_counter()
    engine.load(report)
    assert updates[0].message == IMPORTING and updates[0].stage_step == 0
    bars = [u.step for u in updates]
    assert bars == sorted(bars) and bars[-1] > bars[0]
    if time.perf_counter() - began >= 1.0:  # loading took the time a load is expected to: its share is full
        assert bars[-1] >= 0.2 * updates[-1].total
