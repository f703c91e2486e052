"""Worker v2: two CPU workers against one, and the worker's overhead per job.

Devices: the same 40 queued turns (4 independent branches of 10, sketch engine, default
settings) run headless by ``kamishibai run-queue`` with ``--devices cpu`` and with
``--devices cpu,cpu``, alternating, in the same run; each worker has its own engine
process. Overhead: the same turn (text, seed, depth) run through the service with its
engine process, and directly (predict + decode + the same media writes on a loaded
engine in this process), back to back.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from studio.benchmarks import BenchResult
from studio.composition import create_project, default_registry
from studio.core.instruction import parse_instruction
from studio.core.state import CharacterState
from studio.engines.base import GenerationContext
from studio.worker import GenerationService, HostMode
from studio.worker.results import write_media_files

TITLE = "Worker v2: engine processes and devices (sketch engine)"
ENGINE = "sketch"
INSTRUCTIONS = (
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Qiqi; Motion: run; Background: forest.",
    "Character: Qiqi; Motion: wave hand happily; Background: day town.",
    "Character: Qiqi; Motion: jump; Background: sunset beach.",
)
REPO = Path(__file__).resolve().parents[2]


def queued_project(folder: Path, branches: int, turns: int) -> Path:
    project = create_project(folder)
    service = GenerationService(project, default_registry(), default_engine=ENGINE)
    for b in range(branches):
        parent = project.tree.root_id
        for t in range(turns):
            parent, _ = service.generate(parent, INSTRUCTIONS[(b + t) % len(INSTRUCTIONS)], seed=100 * b + t)
    path = project.path
    project.close()
    return path


def run_queue(path: Path, devices: str) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "studio", "run-queue", str(path), "--quiet", "--devices", devices],
                          cwd=REPO, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"run-queue failed: {done.stderr}")
    return elapsed


def devices(root: Path, rounds: int, branches: int, turns: int) -> tuple[float, float]:
    one, two = [], []
    for r in range(rounds):
        order = [("cpu", one), ("cpu,cpu", two)] if r % 2 == 0 else [("cpu,cpu", two), ("cpu", one)]
        for spec, times in order:
            path = queued_project(root / f"d{r}-{spec.replace(',', '_')}", branches, turns)
            times.append(run_queue(path, spec))
    return min(one), min(two)


def overhead(root: Path, pairs: int) -> tuple[float, float]:
    project = create_project(root / "overhead")
    service = GenerationService(project, default_registry(), default_engine=ENGINE, hosts=HostMode.PROCESS)
    service.start()
    registry = default_registry()
    info = registry.info(ENGINE)
    settings = info.settings.from_values({})
    engine = registry.create(ENGINE)
    engine.load()
    context = GenerationContext(state=CharacterState(), history=(), cast=tuple(project.tree.cast.values()),
                                locations=tuple(project.tree.locations.values()))

    def direct(text: str, seed: int, index: int) -> float:
        start = time.perf_counter()
        prediction = engine.predict(context, parse_instruction(text), settings, seed)
        clip = engine.decode(prediction, settings, seed)
        write_media_files(root, f"direct/{index}", prediction, clip, {"seed": seed})
        return time.perf_counter() - start

    def queued(text: str, seed: int) -> float:
        start = time.perf_counter()
        _, job_id = service.generate(project.tree.root_id, text, seed=seed)
        if not service.wait_jobs([job_id], 600) or service.job(job_id).status.value != "done":
            raise RuntimeError(f"job failed: {service.job(job_id).error}")
        return time.perf_counter() - start

    direct(INSTRUCTIONS[0], 1, -1)
    queued(INSTRUCTIONS[0], 1)  # warm up: the engine process starts and loads
    base, through = [], []
    for i in range(pairs):
        text, seed = INSTRUCTIONS[i % len(INSTRUCTIONS)], 1000 + i
        if i % 2:
            through.append(queued(text, seed))
            base.append(direct(text, seed, i))
        else:
            base.append(direct(text, seed, i))
            through.append(queued(text, seed))
    service.stop()
    project.close()
    return statistics.median(base), statistics.median(w - b for w, b in zip(through, base, strict=True))


def run(quick: bool) -> list[BenchResult]:
    rounds, branches, turns, pairs = (1, 2, 3, 6) if quick else (2, 4, 10, 20)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one, two = devices(root, rounds, branches, turns)
        base, paired = overhead(root, pairs)
    speedup = one / two
    ratio = (base + paired) / base
    count = branches * turns
    return [
        BenchResult(f"run-queue of {count} turns, --devices cpu,cpu", two, "s", goal=">= 1.6x faster than one",
                    met=speedup >= 1.6, baseline=f"--devices cpu: {one:.1f} s", ratio=speedup,
                    note=f"{branches} independent branches of {turns}; best of {rounds} alternating rounds; "
                    "start-up included; ratio is one device's time over two devices'"),
        BenchResult("worker overhead per job (engine process)", paired * 1000, "ms", goal="< 5% of the job",
                    met=ratio < 1.05, baseline=f"engine called directly + same media writes: {base * 1000:.0f} ms",
                    ratio=ratio, note=f"median of {pairs} paired turns; includes the pipe, context, checksums, "
                    "verification, job rows and the take commit"),
    ]
