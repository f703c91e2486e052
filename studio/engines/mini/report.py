"""``kamishibai eval mini``: the shipped model on held-out episodes, on this machine.

Plays fresh held-out episodes in the sketch world (held-out combinations and phrasings;
``seed`` picks which), runs the model and the judge over them, times one turn through the
engine as the studio runs it, and writes the table into docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as _dt
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from studio.engines.base import EngineConfig, EngineLoadError, GenerationContext
from studio.engines.mini import weights
from studio.engines.mini.config import DataConfig, TrainConfig, from_dict
from studio.engines.mini.data import Split
from studio.engines.mini.dataset import ClipSet, EpisodePool, gather
from studio.engines.mini.evaluate import evaluate, markdown_table, per_motion_table
from studio.engines.mini.judge import Judge
from studio.engines.mini.runtime import MiniRuntime, default_decoder_dtype

REPORT_KEY = "mini"


def load_judge(folder: Path, manifest: dict[str, Any], device: torch.device) -> Judge:
    path = weights.verify_file(folder, weights.JUDGE, manifest)
    judge = Judge(weights.model_config(manifest, folder).judge)
    weights.load_float_into(judge, path)
    return judge.to(device).eval()


def data_config(manifest: dict[str, Any], episodes: int, seed: int | None, workers: int) -> DataConfig:
    """The training run's data config, for ``episodes`` held-out episodes drawn with ``seed``."""
    trained = manifest.get("training", {}).get("config", {})
    base = from_dict(TrainConfig, trained).data if trained else DataConfig()
    return dataclasses.replace(base, eval_episodes=episodes, seed=base.seed if seed is None else seed,
                               workers=workers)


def time_turn(checkpoints: Path, steps: int, threads: int | None, repeats: int = 3,
              candidates: int = 1, device: str = "cpu", guidance: float = 1.0) -> dict[str, float]:
    """Seconds of one turn (predict + decode) through the engine at the studio's size and at
    the native size: the median of ``repeats`` after a warm-up. On a GPU each turn is timed
    to the end of its kernels (the engine's own frames come back to the CPU as uint8).

    ``steps`` is the evaluation's (up to ``eval --steps``' 64), not limited to the engine's
    setting (16): the settings are validated without it and given it afterwards, so that a
    run timed at 17 steps is not refused after its whole evaluation."""
    from studio.core.instruction import parse_instruction
    from studio.engines.catalog.mini import MiniSettings
    from studio.engines.config import Placement
    from studio.engines.mini.engine import MiniEngine

    engine = MiniEngine(EngineConfig(checkpoints=checkpoints, threads=threads, device=Placement(device)))
    engine.load()
    on_gpu = torch.device(device).type == "cuda"
    instruction = parse_instruction("Character: Qiqi; Motion: quickly run; Background: day town.")
    out: dict[str, float] = {"threads": float(engine.threads)}
    chosen: dict[str, Any] = {"candidates": candidates, "guidance": guidance}
    for name, values in (("studio", chosen), ("native", {**chosen, "height": 128, "width": 192})):
        settings = dataclasses.replace(MiniSettings.from_values(values), steps=steps)
        times = []
        for seed in range(repeats + 1):
            if on_gpu:
                torch.cuda.synchronize(device)
            started = time.perf_counter()
            prediction = engine.predict(GenerationContext(), instruction, settings, seed)
            engine.decode(prediction, settings, seed)
            if on_gpu:
                torch.cuda.synchronize(device)
            times.append(time.perf_counter() - started)
        out[name] = statistics.median(times[1:])
    engine.unload()
    return out


@dataclasses.dataclass(frozen=True)
class HeldOut:
    """A checkpoint's model and judge, and freshly played held-out episodes to run them on."""

    runtime: MiniRuntime
    judge: Judge
    evalset: ClipSet
    seed: int
    manifest: dict[str, Any]


def load_held_out(checkpoints: Path, *, episodes: int, seed: int | None, device: torch.device, workers: int = 0,
                  alt: bool = True, log: Callable[[str], None] = print, split: Split = Split.HELDOUT) -> HeldOut:
    """The model and judge of ``checkpoints/mini`` on ``device``, and ``episodes`` held-out
    episodes drawn with ``seed`` (default: the training run's), with second ground-truth clips
    when ``alt``. With ``split`` TRAIN and the training run's seed they are instead the first
    episodes the decoder was trained on (a diagnosis: does it fit what it saw?)."""
    folder = checkpoints / "mini"
    manifest = weights.read_manifest(folder)
    runtime = MiniRuntime.load(folder, device, device, default_decoder_dtype(device))
    judge = load_judge(folder, manifest, device)
    data = data_config(manifest, episodes, seed, workers)
    video = runtime.config.video
    pool = EpisodePool(data.workers)
    try:
        started = time.perf_counter()
        evalset = gather(pool.episodes(data, video, split, range(episodes), render=True, alt=alt),
                         episodes, data.turns, video, torch.device("cpu"), rendered=True, alt=alt)
        which = "held-out" if split is Split.HELDOUT else "training"
        log(f"played {episodes} {which} episode{'s' if episodes != 1 else ''} ({len(evalset.table)} turns) in "
            f"{time.perf_counter() - started:.1f} s")
    finally:
        pool.close()
    return HeldOut(runtime, judge, evalset, data.seed, manifest)


def measurement_parser(prog: str, description: str, *, episodes: int) -> argparse.ArgumentParser:
    """The options every checkpoint measurement takes (``python -m studio.engines.mini.*``):
    the checkpoints, how many episodes, the sampler's steps and guidance, the seed, threads."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--checkpoints", type=Path, required=True, help="a folder holding mini/")
    parser.add_argument("--episodes", type=int, default=episodes, help="episodes (3 turns each)")
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--guidance", type=float, default=1.0)
    parser.add_argument("--seed", type=int, help="which episodes (default: the training run's data seed)")
    parser.add_argument("--threads", type=int, default=1)
    return parser


def run_evaluation(checkpoints: Path, *, episodes: int = 40, steps: int = 4, seed: int | None = None,
                   device: str = "cpu", threads: int | None = None, workers: int = 0, candidates: int = 1,
                   guidance: float = 1.0, log: Callable[[str], None] = print) -> dict[str, Any]:
    chosen = torch.device(device)
    if threads:
        from studio.engines.mini.engine import usable_threads

        torch.set_num_threads(usable_threads(threads))
    held = load_held_out(checkpoints, episodes=episodes, seed=seed, device=chosen, workers=workers, log=log)
    batch = 64 if chosen.type == "cuda" else 8
    metrics = evaluate(held.runtime, held.judge, held.evalset, steps=steps, batch=batch, device=chosen, log=log,
                       candidates=candidates, guidance=guidance)
    metrics.pop("generated")
    if chosen.type == "cpu":
        speed = time_turn(checkpoints, steps, threads, candidates=int(metrics["candidates"]), guidance=guidance)
        metrics["cpu_seconds_per_turn"] = speed["studio"]
        compute = str(held.runtime.decoder_dtype).removeprefix("torch.")
        metrics["cpu_note"] = (f"{int(speed['threads'])} thread(s), the decoder in {compute}, output 480 x 720; at "
                               f"the native 128 x 192: {speed['native']:.2f} s; median of 3 after a warm-up")
    else:
        speed = time_turn(checkpoints, steps, threads, repeats=5, candidates=int(metrics["candidates"]),
                          device=device, guidance=guidance)
        metrics["gpu_seconds_per_turn"] = speed["studio"]
        metrics["gpu_note"] = (f"{torch.cuda.get_device_name(chosen)}, the decoder in "
                               f"{str(held.runtime.decoder_dtype).removeprefix('torch.')}, batch of one, output "
                               f"480 x 720; at the native 128 x 192: {speed['native']:.3f} s; median of 5 after a "
                               "warm-up")
    metrics["held_out_seed"] = held.seed
    metrics["episodes"] = episodes
    metrics["training"] = {k: v.get("steps") for k, v in held.manifest.get("training", {}).get("run", {})
                           .get("stages", {}).items()}
    return metrics


def report_section(metrics: dict[str, Any], seconds: float) -> str:
    from studio.benchmarks import machine_description

    date = _dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    steps = ", ".join(f"{k} {v}" for k, v in metrics.get("training", {}).items() if k != "eval" and v)
    denoising = f"{metrics['steps']} denoising step{'s' if int(metrics['steps']) != 1 else ''}"
    return "\n".join([
        f"<!-- bench:{REPORT_KEY} -->",
        "## Mini engine: held-out evaluation",
        "",
        f"Measured {date} on {machine_description()} ({seconds:.0f} s). Re-run with `kamishibai eval mini` "
        f"(this run: {int(metrics['episodes'])} held-out episodes, {int(metrics['turns'])} turns, held-out seed "
        f"{metrics['held_out_seed']}, {denoising}{_candidates(metrics)}; training steps per "
        f"stage: {steps}).",
        "Held out: every (character, motion, location) combination and instruction template of these turns was "
        "never trained on. Deltas are scored against the sketch world's rule without its seeded variation.",
        "",
        markdown_table(metrics),
        "",
        "<details><summary>Judge accuracy per motion (generated / ground truth)</summary>",
        "",
        per_motion_table(metrics),
        "",
        "</details>",
        f"<!-- /bench:{REPORT_KEY} -->",
    ])


def _candidates(metrics: dict[str, Any]) -> str:
    count = int(metrics.get("candidates", 1))
    kept = f", {count} candidates per turn kept by the motion critic" if count > 1 else ""
    return kept + (f", guidance {float(metrics['guidance']):g}" if "guidance" in metrics else "")


def write_report(report: Path, metrics: dict[str, Any], seconds: float) -> None:
    from studio.benchmarks import update_report

    update_report(report, REPORT_KEY, report_section(metrics, seconds))


__all__ = ["EngineLoadError", "run_evaluation", "write_report"]
