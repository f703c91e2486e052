"""Render farm: the same queued tree on one Ray actor and on two, in one run.

A tree of ``branches`` independent branches of ``turns`` turns (40 by default, as the
devices benchmark) is queued in two copies of a project; each copy runs through the
generation service on a local Ray instance (``--cluster local``), once with one engine
actor and once with two. On a machine with GPUs each actor holds one GPU; here, on the
CPU, each holds one core. Engines are loaded on every actor before the clock starts
(``GenerationService.preload``), so the ratio is the steady throughput of the queue.

Ray's cost per job: each take records the round trip of its job seen from the parent
(send the job, stream progress, receive the files through the object store, write them)
and the engine's own time on the actor (predict, decode and the media write); the
difference, against the engine's time, is what the cluster adds to a turn.

Settings (environment): ``KAMISHIBAI_BENCH_CLUSTER_ENGINE`` (default ``mini``, ``sketch``
on a machine without CUDA), ``..._BRANCHES`` and ``..._TURNS`` (4 and 10),
``..._SETTINGS`` (engine settings as JSON), ``..._CPUS_PER_ACTOR`` (default 4 with GPUs,
1 without). ``..._BACKEND=devices`` runs the same queue on local engine processes
(``--devices cuda:0`` against ``cuda:0,cuda:1``) instead: the fallback where Ray can't
start, which measures the hosts' throughput but not Ray's cost.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.benchmarks import BenchResult
from studio.composition import create_project, default_checkpoints, default_registry
from studio.engines.config import EngineConfig
from studio.worker import GenerationService, JobStatus
from studio.worker.cluster import ClusterSpec

TITLE = "Render farm: the queue on Ray actors (one actor against two)"
INSTRUCTIONS = (
    "Character: Qiqi; Motion: gently sit on railing; Background: day town.",
    "Character: Qiqi; Motion: run; Background: forest.",
    "Character: Qiqi; Motion: wave hand happily; Background: day town.",
    "Character: Qiqi; Motion: jump; Background: sunset beach.",
)
ENV = "KAMISHIBAI_BENCH_CLUSTER_"


def _env(name: str, default: str) -> str:
    return os.environ.get(ENV + name, default)


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


@dataclass(frozen=True)
class QueueRun:
    actors: int
    wall: float
    """From the start of the workers to the last take committed (engines already loaded)."""
    load: list[float]
    engine: list[float]
    """Per turn: predict + decode + media write on the actor."""
    actor: list[float]
    """Per turn: the job's whole time on the actor."""
    roundtrip: list[float]
    """Per turn: the job's round trip seen from the parent, files written into the project."""
    critical: int
    """The longest chain of turns that must run in order."""


def queued_project(folder: Path, engine: str, settings: dict[str, Any], branches: int, turns: int) -> Path:
    project = create_project(folder)
    service = GenerationService(project, default_registry(), default_engine=engine)
    for b in range(branches):
        parent = project.tree.root_id
        for t in range(turns):
            parent, _ = service.generate(parent, INSTRUCTIONS[(b + t) % len(INSTRUCTIONS)], seed=100 * b + t,
                                         settings=settings)
    path = project.path
    project.close()
    return path


def run_queue(path: Path, engine: str, actors: int, gpus: float, cpus_per_actor: float, turns: int) -> QueueRun:
    from studio.storage import Project

    project = Project.open(path)
    config = EngineConfig.parse("cpu", checkpoints=default_checkpoints())
    if _env("BACKEND", "ray") == "devices":
        kind = "cuda" if _cuda() else "cpu"
        devices = [EngineConfig.parse(f"{kind}:{i}" if kind == "cuda" else "cpu", checkpoints=default_checkpoints())
                   for i in range(actors)]
        service = GenerationService(project, default_registry(), devices=devices, default_engine=engine)
    else:
        spec = ClusterSpec("local", actors=actors, gpus_per_actor=1.0 if gpus else 0.0,
                           cpus_per_actor=cpus_per_actor)
        service = GenerationService(project, default_registry(), device=config, default_engine=engine, cluster=spec)
    try:
        load = service.preload(engine)
        jobs = [job.id for job in service.jobs()]
        start = time.perf_counter()
        service.start()
        if not service.wait_jobs(jobs, 3600):
            raise RuntimeError("the queue did not finish within an hour")
        wall = time.perf_counter() - start
        failed = [service.job(j).error for j in jobs if service.job(j).status is not JobStatus.DONE]
        if failed:
            raise RuntimeError(f"{len(failed)} job(s) failed: {failed[0]}")
        takes = [project.tree.takes[service.job(j).take_id] for j in jobs]
    finally:
        service.stop(cancel_running=True, timeout=60)
        project.close()
    engine_s = [t.timings["predict_s"] + t.timings["decode_s"] + t.timings["write_s"] for t in takes]
    return QueueRun(actors=actors, wall=wall, load=load, engine=engine_s,
                    actor=[t.timings.get("cluster_actor_s", 0.0) for t in takes],
                    roundtrip=[t.timings.get("cluster_roundtrip_s", 0.0) for t in takes], critical=turns)


def predicted_wall(turns_total: int, critical: int, actors: int, per_turn: float) -> float:
    """The model of docs/CLUSTER.md: a queue of T turns whose longest chain is L turns, on N
    hosts that each make a turn in t: max(ceil(T / N), L) * t."""
    return max(-(-turns_total // actors), critical) * per_turn


def run(quick: bool) -> list[BenchResult]:
    cuda = _cuda()
    engine = _env("ENGINE", "mini" if cuda else "sketch")
    branches = int(_env("BRANCHES", "2" if quick else "4"))
    turns = int(_env("TURNS", "3" if quick else "10"))
    settings = json.loads(_env("SETTINGS", "{}"))
    cpus_per_actor = float(_env("CPUS_PER_ACTOR", "4" if cuda else "1"))
    total = branches * turns
    on_ray = _env("BACKEND", "ray") != "devices"
    if on_ray:
        from studio.worker.cluster.backend import RayCluster

        cluster = RayCluster.connect(ClusterSpec("local"))
        gpus = cluster.gpus
    else:
        import torch

        gpus = float(torch.cuda.device_count()) if cuda else 0.0
    runs: dict[int, QueueRun] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for actors in (1, 2):
            path = queued_project(root / f"actors{actors}", engine, settings, branches, turns)
            runs[actors] = run_queue(path, engine, actors, gpus, cpus_per_actor, turns)
    if on_ray:
        cluster.shutdown()
    one, two = runs[1], runs[2]
    speedup = one.wall / two.wall
    per_turn = one.wall / total
    overhead = [r - e for r, e in zip(two.roundtrip + one.roundtrip, two.engine + one.engine, strict=True)]
    engine_turn = statistics.median(one.engine + two.engine)
    median_overhead = statistics.median(overhead)
    ray_only = statistics.median(r - a for r, a in zip(one.roundtrip + two.roundtrip, one.actor + two.actor,
                                                        strict=True))
    model = predicted_wall(total, turns, 2, per_turn)
    where = f"{gpus:g} GPU(s), one per actor" if gpus else "CPU, one core per actor"
    load = os.getloadavg()[0]
    if not on_ray:
        return [BenchResult(f"{total} turns on two local engine processes (no Ray)", two.wall, "s",
                            baseline=f"one: {one.wall:.1f} s", ratio=speedup,
                            note=f"fallback without Ray: {engine} engine, {where}; per turn {per_turn:.3f} s")]
    return [
        BenchResult(f"{total} turns on two actors", two.wall, "s", goal=">= 1.9x one actor's throughput",
                    met=speedup >= 1.9, baseline=f"one actor: {one.wall:.1f} s", ratio=speedup,
                    note=f"{engine} engine, {where}; {branches} independent branches of {turns}; engines loaded "
                    f"before the clock (load {max(one.load + two.load, default=0):.1f} s); {cpus_per_actor:g} CPUs per "
                    f"actor; engine time per turn (median) one actor {statistics.median(one.engine):.3f} s, two "
                    f"{statistics.median(two.engine):.3f} s; load average {load:.1f}"),
        BenchResult("time per turn, one actor", per_turn, "s", note=f"queue wall time / {total} turns; the "
                    f"engine's own time per turn (median) {engine_turn:.3f} s"),
        BenchResult("Ray's overhead per job", median_overhead * 1000, "ms", goal="< 5% of a turn",
                    met=median_overhead < 0.05 * engine_turn, baseline=f"engine time per turn {engine_turn:.3f} s",
                    ratio=(engine_turn + median_overhead) / engine_turn,
                    note=f"median over {2 * total} jobs of the parent's round trip minus the actor's predict + "
                    f"decode + media write; of it, outside the actor's job altogether: {ray_only * 1000:.1f} ms"),
        BenchResult("model: two actors' wall time", model, "s", baseline=f"measured {two.wall:.1f} s",
                    ratio=two.wall / model, note="max(ceil(T/N), L) x one actor's time per turn "
                    f"(T={total}, N=2, L={turns}); ratio is measured over predicted"),
    ]
