"""Worker v2: two CPU workers against one, and the worker's overhead per job.

Devices: the same 40 queued turns (4 independent branches of 10, sketch engine, default
settings) run headless by ``kamishibai run-queue`` with ``--devices cpu`` and with
``--devices cpu,cpu``, alternating, in the same run; each worker has its own engine
process. Overhead: the same turn (text, seed, depth) run through the service with its
engine process, and directly (predict + decode + the same media writes on a loaded
engine in this process), back to back.

Besides wall time, each measure reports CPU time (ours and our child processes', ffmpeg
included), which other programs on a shared machine move much less than wall time: the
CPU time per job through the worker against the direct call is the overhead with less of
the machine's noise, and CPU seconds per wall second says how many cores a run got.
"""

from __future__ import annotations

import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


@dataclass(frozen=True)
class QueueRun:
    wall: float
    cpu: float
    """CPU seconds of run-queue and every process under it (engine processes, ffmpeg)."""
    load: float
    """The machine's 1-minute load average when the run started."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_queue(path: Path, devices: str) -> QueueRun:
    load = os.getloadavg()[0]
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "studio", "run-queue", str(path), "--quiet", "--devices", devices],
                          cwd=REPO, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"run-queue failed: {done.stderr}")
    return QueueRun(elapsed, _children_cpu() - cpu, load)


def devices(root: Path, rounds: int, branches: int, turns: int) -> tuple[list[QueueRun], list[QueueRun]]:
    one: list[QueueRun] = []
    two: list[QueueRun] = []
    for r in range(rounds):
        order = [("cpu", one), ("cpu,cpu", two)] if r % 2 == 0 else [("cpu,cpu", two), ("cpu", one)]
        for spec, runs in order:
            path = queued_project(root / f"d{r}-{spec.replace(',', '_')}", branches, turns)
            runs.append(run_queue(path, spec))
    return one, two


def _process_cpu(pid: int) -> float:
    """CPU seconds of a live process and of its children it has waited for (ffmpeg)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _live_children() -> list[int]:
    pids: list[int] = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError):
            pids += [int(p) for p in (task / "children").read_text().split()]
    return pids


def _cpu_now() -> float:
    """This process (all threads), the children it has waited for, and the live ones."""
    times = os.times()
    live = 0.0
    for pid in _live_children():
        with contextlib.suppress(OSError, ValueError):
            live += _process_cpu(pid)
    return times.user + times.system + times.children_user + times.children_system + live


@dataclass(frozen=True)
class Overhead:
    base: float
    """Median wall time of a direct call."""
    paired: float
    """Median of (through the worker - direct) over the pairs."""
    spread: tuple[float, float]
    """Quartiles of those differences."""
    cpu_ratio: float
    """CPU time of all jobs through the worker over that of all direct calls."""


def overhead(root: Path, pairs: int) -> Overhead:
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

    cpu = {"direct": 0.0, "queued": 0.0}

    def direct(text: str, seed: int, index: int) -> float:
        used = _cpu_now()
        start = time.perf_counter()
        prediction = engine.predict(context, parse_instruction(text), settings, seed)
        clip = engine.decode(prediction, settings, seed)
        write_media_files(root, f"direct/{index}", prediction, clip, {"seed": seed})
        elapsed = time.perf_counter() - start
        cpu["direct"] += _cpu_now() - used
        return elapsed

    def queued(text: str, seed: int) -> float:
        used = _cpu_now()
        start = time.perf_counter()
        _, job_id = service.generate(project.tree.root_id, text, seed=seed)
        if not service.wait_jobs([job_id], 600) or service.job(job_id).status.value != "done":
            raise RuntimeError(f"job failed: {service.job(job_id).error}")
        elapsed = time.perf_counter() - start
        cpu["queued"] += _cpu_now() - used
        return elapsed

    direct(INSTRUCTIONS[0], 1, -1)
    queued(INSTRUCTIONS[0], 1)  # warm up: the engine process starts and loads
    cpu.update(direct=0.0, queued=0.0)
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
    differences = [w - b for w, b in zip(through, base, strict=True)]
    quartiles = statistics.quantiles(differences, n=4)
    return Overhead(statistics.median(base), statistics.median(differences), (quartiles[0], quartiles[2]),
                    cpu["queued"] / cpu["direct"])


def run(quick: bool) -> list[BenchResult]:
    rounds, branches, turns, pairs = (1, 2, 3, 6) if quick else (3, 4, 10, 24)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one, two = devices(root, rounds, branches, turns)
        cost = overhead(root, pairs)
    best_one, best_two = min(r.wall for r in one), min(r.wall for r in two)
    speedup = best_one / best_two
    ratios = ", ".join(f"{a.wall / b.wall:.2f}x (load {a.load:.1f}/{b.load:.1f})"
                       for a, b in zip(one, two, strict=True))
    cores_one = statistics.median(r.cpu / r.wall for r in one)
    cores_two = statistics.median(r.cpu / r.wall for r in two)
    cpu_per_turn = statistics.median(r.cpu for r in (*one, *two)) / (branches * turns)
    ratio = (cost.base + cost.paired) / cost.base
    count = branches * turns
    return [
        BenchResult(f"run-queue of {count} turns, --devices cpu,cpu", best_two, "s", goal=">= 1.6x faster than one",
                    met=speedup >= 1.6, baseline=f"--devices cpu: {best_one:.1f} s", ratio=speedup,
                    note=f"{branches} independent branches of {turns}; best of {rounds} alternating rounds; "
                    f"start-up included; ratio is one device's time over two devices'; per round: {ratios}; "
                    f"cores we got (CPU s per wall s): one device {cores_one:.2f}, two {cores_two:.2f}; "
                    f"CPU per turn {cpu_per_turn * 1000:.0f} ms"),
        BenchResult("worker overhead per job (engine process)", cost.paired * 1000, "ms", goal="< 5% of the job",
                    met=ratio < 1.05, baseline=f"engine called directly + same media writes: {cost.base * 1000:.0f} ms",
                    ratio=ratio, note=f"median of {pairs} paired turns (quartiles {cost.spread[0] * 1000:.0f} to "
                    f"{cost.spread[1] * 1000:.0f} ms); includes the pipe, context, checksums, verification, job rows "
                    f"and the take commit"),
        BenchResult("worker CPU per job over the direct call's", cost.cpu_ratio, "x", goal="< 1.05x",
                    met=cost.cpu_ratio < 1.05, note=f"all CPU time of the {pairs} turns each way: this process, the "
                    "engine process and ffmpeg; much less moved by other programs' load than wall time"),
    ]
