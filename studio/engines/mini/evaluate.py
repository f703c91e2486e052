"""The mini model's evaluation on held-out episodes (the goals of issue 14).

State prediction against the sketch world's rule without its seeded variation (exact
accuracy per field, mean absolute error, share inside the range the variation produces),
motion-level accuracy; instruction following read by the judge (motion, location,
character, all three at once, per motion) beside the judge's reading of the ground-truth
clips (its ceiling); the Frechet distance in the judge's feature space against ground
truth beside the same distance between two ground-truth samples; flicker on regions the
ground truth keeps still; and whether a branch keeps its character's look.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from studio.engines.mini.data import LOCATION_NAMES, MOTION_NAMES, TIMES, Turn, characters
from studio.engines.mini.dataset import ClipSet, TurnTable, to_float
from studio.engines.mini.judge import HEADS, Judge
from studio.engines.mini.runtime import MiniRuntime, TurnOutput, TurnQuery
from studio.engines.mini.sequence import PastTurn

FIELDS = ("stamina", "social", "entertainment")
GOALS = {"acc_s": 0.9, "level": 0.9, "judge": 0.9, "all": 0.85, "seconds_per_turn": 2.0}


def labels(turn: Turn) -> dict[str, int]:
    return {"motion": MOTION_NAMES.index(turn.motion), "location": LOCATION_NAMES.index(turn.location),
            "character": characters().index(turn.character), "time": TIMES.index(turn.time)}


# -- state ------------------------------------------------------------------------------------------------------

def predict_episodes(runtime: MiniRuntime, table: TurnTable, *, batch: int = 64, window: int = 2,
                     log: Callable[[str], None] | None = None) -> list[TurnOutput]:
    """Every turn's prediction, turn by turn through each branch: earlier turns as the world
    played them (text, level, deltas), representations from the model's own earlier
    predictions, the state before the turn as given."""
    outputs: list[TurnOutput | None] = [None] * len(table)
    for position in range(max(table.position) + 1 if len(table) else 0):
        indices = [i for i in range(len(table)) if table.position[i] == position]
        for start in range(0, len(indices), batch):
            chunk = indices[start:start + batch]
            queries = []
            for i in chunk:
                past = []
                for j in table.history(i, window):
                    earlier = outputs[j]
                    t = table.turns[j]
                    past.append(PastTurn(t.text, t.level, t.truth.deltas,
                                         earlier.representation if earlier is not None else None))
                turn = table.turns[i]
                queries.append(TurnQuery(turn.text, turn.state, tuple(past)))
            for i, out in zip(chunk, runtime.predict(queries), strict=True):
                outputs[i] = out
        if log is not None:
            log(f"predicted turn {position + 1} of every episode")
    return [o for o in outputs if o is not None]


def state_metrics(turns: Sequence[Turn], outputs: Sequence[TurnOutput]) -> dict[str, float]:
    out: dict[str, float] = {}
    exact_all = []
    for f, name in enumerate(FIELDS):
        pred = np.array([o.deltas[f] for o in outputs])
        rule = np.array([t.truth.rule[f] for t in turns])
        low = np.array([t.truth.low[f] for t in turns])
        high = np.array([t.truth.high[f] for t in turns])
        world = np.array([t.truth.deltas[f] for t in turns])
        out[f"acc_s_{name}"] = float((pred == rule).mean())
        out[f"mae_{name}"] = float(np.abs(pred - rule).mean())
        out[f"in_range_{name}"] = float(((pred >= low) & (pred <= high)).mean())
        out[f"acc_world_{name}"] = float((pred == world).mean())
        exact_all.append(pred == rule)
    out["acc_s_all_fields"] = float(np.all(exact_all, axis=0).mean())
    out["level_accuracy"] = float(np.mean([o.level == t.level for o, t in zip(outputs, turns, strict=True)]))
    out["turns"] = float(len(turns))
    return out


# -- clips ------------------------------------------------------------------------------------------------------

@dataclass
class JudgeReading:
    predictions: dict[str, np.ndarray]
    probabilities: dict[str, np.ndarray]
    features: np.ndarray


@torch.no_grad()
def read_clips(judge: Judge, clips: torch.Tensor, device: torch.device, batch: int = 64) -> JudgeReading:
    """The judge's reading of uint8 clips (N, T, H, W, 3)."""
    preds: dict[str, list[np.ndarray]] = {h: [] for h in HEADS}
    probs: dict[str, list[np.ndarray]] = {h: [] for h in HEADS}
    feats = []
    judge = judge.eval().to(device)
    for start in range(0, clips.shape[0], batch):
        x = to_float(clips[start:start + batch].to(device))
        reading = judge(x)
        for h in HEADS:
            p = torch.softmax(reading.logits[h].float(), dim=-1)
            probs[h].append(p.cpu().numpy())
            preds[h].append(p.argmax(dim=-1).cpu().numpy())
        feats.append(reading.features.float().cpu().numpy())
    return JudgeReading({h: np.concatenate(v) for h, v in preds.items()},
                        {h: np.concatenate(v) for h, v in probs.items()}, np.concatenate(feats))


def judge_metrics(reading: JudgeReading, turns: Sequence[Turn], prefix: str) -> dict[str, Any]:
    truth = {h: np.array([labels(t)[h] for t in turns]) for h in HEADS}
    out: dict[str, Any] = {}
    right = {h: reading.predictions[h] == truth[h] for h in HEADS}
    for h in HEADS:
        out[f"{prefix}_{h}"] = float(right[h].mean())
    out[f"{prefix}_all"] = float((right["motion"] & right["location"] & right["character"]).mean())
    per_motion = {}
    for m, name in enumerate(MOTION_NAMES):
        mask = truth["motion"] == m
        if mask.any():
            per_motion[name] = [int(right["motion"][mask].sum()), int(mask.sum())]
    out[f"{prefix}_per_motion"] = per_motion
    return out


def frechet(a: np.ndarray, b: np.ndarray) -> float:
    """Frechet distance between Gaussians fitted to two feature sets (as FID/FVD)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    mu = a64.mean(0) - b64.mean(0)
    ca = np.cov(a64, rowvar=False) + 1e-6 * np.eye(a.shape[1])
    cb = np.cov(b64, rowvar=False) + 1e-6 * np.eye(b.shape[1])
    w, v = np.linalg.eigh(ca)
    root = (v * np.sqrt(np.clip(w, 0, None))) @ v.T
    cross = np.linalg.eigvalsh(root @ cb @ root)
    return float(mu @ mu + np.trace(ca) + np.trace(cb) - 2 * np.sqrt(np.clip(cross, 0, None)).sum())


@torch.no_grad()
def flicker(clips: torch.Tensor, reference: torch.Tensor, batch: int = 32, threshold: float = 0.02) -> float:
    """Mean frame-to-frame change of ``clips`` on the pixels ``reference`` keeps still (in
    [0, 1] units, averaged over channels)."""
    total, count = 0.0, 0.0
    for start in range(0, clips.shape[0], batch):
        x = clips[start:start + batch].float() / 255
        ref = reference[start:start + batch].to(x.device).float() / 255
        still = (ref[:, 1:] - ref[:, :-1]).abs().mean(-1).amax(1) < threshold  # (B, H, W)
        change = (x[:, 1:] - x[:, :-1]).abs().mean(-1).mean(1)
        total += float((change * still).sum())
        count += float(still.sum())
    return total / max(count, 1.0)


def consistency(reading: JudgeReading, table: TurnTable) -> dict[str, float]:
    """Over consecutive turns of a branch with the same character: how often the judge
    reads the same character in both clips, and the cosine of its character readings."""
    same, cosines = [], []
    for i in range(len(table)):
        if table.position[i] == 0:
            continue
        j = i - 1
        if table.turns[i].character != table.turns[j].character:
            continue
        same.append(reading.predictions["character"][i] == reading.predictions["character"][j])
        a, b = reading.probabilities["character"][i], reading.probabilities["character"][j]
        cosines.append(float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-9)))
    return {"same_character": float(np.mean(same)) if same else float("nan"),
            "character_cosine": float(np.mean(cosines)) if cosines else float("nan"), "pairs": float(len(same))}


def decode_turns(runtime: MiniRuntime, outputs: Sequence[TurnOutput], seeds: Sequence[int], *, steps: int,
                 batch: int, guidance: float = 1.0, candidates: int = 1) -> torch.Tensor:
    """Every turn's clip, as the engine decodes it (``candidates`` per turn, judged against the
    LM's motions, when above 1)."""
    clips = []
    for start in range(0, len(outputs), batch):
        chunk = outputs[start:start + batch]
        reps = np.stack([o.representation for o in chunk])
        clips.append(runtime.decode(reps, [o.level for o in chunk], seeds[start:start + batch], steps=steps,
                                    guidance=guidance, candidates=candidates, motions=[o.motions for o in chunk]))
    return torch.cat(clips)


def evaluate(runtime: MiniRuntime, judge: Judge, evalset: ClipSet, *, steps: int, batch: int,
             device: torch.device, log: Callable[[str], None] | None = None, guidance: float = 1.0,
             candidates: int = 1) -> dict[str, Any]:
    """Every metric on ``evalset`` (held-out episodes with ground-truth and second ground-truth clips)."""
    table = evalset.table
    started = time.perf_counter()
    outputs = predict_episodes(runtime, table, batch=batch * 4, log=log)
    predict_seconds = time.perf_counter() - started
    metrics: dict[str, Any] = state_metrics(table.turns, outputs)
    started = time.perf_counter()
    generated = decode_turns(runtime, outputs, [t.seed for t in table.turns], steps=steps, batch=batch,
                             guidance=guidance, candidates=candidates)
    decode_seconds = time.perf_counter() - started
    if log is not None:
        log(f"decoded {len(outputs)} clips in {decode_seconds:.1f} s")
    gen = read_clips(judge, generated, device)
    truth = read_clips(judge, evalset.clips, device)
    metrics.update(judge_metrics(gen, table.turns, "judge"))
    metrics.update(judge_metrics(truth, table.turns, "ceiling"))
    if evalset.alt is not None:
        alt = read_clips(judge, evalset.alt, device)
        metrics["fd_generated"] = frechet(gen.features, truth.features)
        metrics["fd_ground_truth"] = frechet(alt.features, truth.features)
        metrics["flicker_ground_truth"] = flicker(evalset.alt, evalset.clips)
    metrics["flicker_generated"] = flicker(generated, evalset.clips)
    metrics.update({f"consistency_{k}": v for k, v in consistency(gen, table).items()})
    metrics.update({f"consistency_gt_{k}": v for k, v in consistency(truth, table).items()})
    metrics["steps"] = steps
    if guidance != 1.0:
        metrics["guidance"] = guidance
    metrics["candidates"] = candidates if runtime.critic is not None else 1
    metrics["predict_seconds_per_turn_batched"] = predict_seconds / max(1, len(outputs))
    metrics["decode_seconds_per_turn_batched"] = decode_seconds / max(1, len(outputs))
    metrics["generated"] = generated
    return metrics


# -- report -----------------------------------------------------------------------------------------------------

def _met(value: float, goal: float, higher: bool = True) -> str:
    return "yes" if (value >= goal if higher else value <= goal) else "**no**"


def markdown_table(m: dict[str, Any]) -> str:
    """The goals table of ``kamishibai eval mini``."""
    rows = ["| measure | mini | goal | met | ground truth / reference | note |", "|---|---|---|---|---|---|"]
    for name in FIELDS:
        acc = m[f"acc_s_{name}"]
        rows.append(f"| ACC-S {name} (exact, vs rule) | {acc:.3f} | >= 0.9 | {_met(acc, 0.9)} | 1.0 | "
                    f"MAE {m[f'mae_{name}']:.3f}; in the world's range {m[f'in_range_{name}']:.3f}; "
                    f"equal to the seeded delta {m[f'acc_world_{name}']:.3f} |")
    rows.append(f"| all three deltas exact | {m['acc_s_all_fields']:.3f} |  |  | 1.0 |  |")
    rows.append(f"| motion level accuracy | {m['level_accuracy']:.3f} | >= 0.9 | {_met(m['level_accuracy'], 0.9)} "
                f"| 1.0 |  |")
    for head, goal in (("motion", 0.9), ("location", 0.9), ("character", 0.9), ("all", 0.85)):
        value, ceiling = m[f"judge_{head}"], m[f"ceiling_{head}"]
        label = "motion + location + character at once" if head == "all" else f"judge: {head}"
        rows.append(f"| {label} | {value:.3f} | >= {goal} | {_met(value, goal)} | {ceiling:.3f} (judge on "
                    "ground truth) |  |")
    rows.append(f"| judge: time of day | {m['judge_time']:.3f} |  |  | {m['ceiling_time']:.3f} |  |")
    if "fd_generated" in m:
        rows.append(f"| Frechet distance (judge features) | {m['fd_generated']:.2f} | near the reference |  | "
                    f"{m['fd_ground_truth']:.2f} (ground truth vs a second ground-truth sample) | lower is better |")
        rows.append(f"| flicker on still background | {m['flicker_generated']:.4f} |  |  | "
                    f"{m['flicker_ground_truth']:.4f} (second ground-truth sample) | mean frame-to-frame change, "
                    "0..1 |")
    rows.append(f"| same character across a branch | {m['consistency_same_character']:.3f} |  |  | "
                f"{m['consistency_gt_same_character']:.3f} | judge reads the same cast member in consecutive "
                f"turns ({int(m['consistency_pairs'])} pairs); cosine {m['consistency_character_cosine']:.3f} vs "
                f"{m['consistency_gt_character_cosine']:.3f} |")
    if "cpu_seconds_per_turn" in m:
        value = m["cpu_seconds_per_turn"]
        kept = f", best of {int(m['candidates'])}" if int(m.get("candidates", 1)) > 1 else ""
        kept += f", guidance {float(m['guidance']):g}" if "guidance" in m else ""
        steps = int(m["steps"])
        rows.append(f"| one turn on this CPU (predict + decode, {steps} step{'s' if steps != 1 else ''}{kept}) | "
                    f"{value:.2f} s | <= 2 s | "
                    f"{_met(value, 2.0, higher=False)} |  | {m.get('cpu_note', '')} |")
    if "gpu_seconds_per_turn" in m:
        rows.append(f"| one turn on one GPU | {m['gpu_seconds_per_turn']:.3f} s |  |  |  | "
                    f"{m.get('gpu_note', '')} |")
    return "\n".join(rows)


def per_motion_table(m: dict[str, Any]) -> str:
    rows = ["| motion | generated | ground truth |", "|---|---|---|"]
    for name in MOTION_NAMES:
        gen = m["judge_per_motion"].get(name)
        gt = m["ceiling_per_motion"].get(name)
        if gen or gt:
            rows.append(f"| {name} | {gen[0]}/{gen[1]} | {gt[0]}/{gt[1]} |" if gen and gt else f"| {name} | | |")
    return "\n".join(rows)
