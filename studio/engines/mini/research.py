"""What the mini engine's research harnesses share (``experiment``, ``latent_experiment``).

- **A training budget** (:class:`Budget`, :func:`train_to_budget`): runs compare at equal
  compute (training FLOPs, counted by ``torch.utils.flop_counter`` on one step, whatever else
  the machine is doing) on a workstation, or at equal wall-clock minutes on a GPU lease. The
  learning rate warms up, then follows a cosine to a tenth of its peak over the budget.
- **The shipped judge** and the scores read with it (:func:`load_judge`, :func:`judge_readings`,
  :func:`accuracy`), PSNR and frame-to-frame change on clips (B, 3, T, H, W) in [-1, 1].

Research code: nothing here is used by the engine at run time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

CHECKPOINT = Path(__file__).resolve().parents[3] / "checkpoints" / "mini"


@dataclass(frozen=True)
class Budget:
    """How long a run trains: ``tflops`` of training compute, or ``minutes`` of wall clock
    (with ``tflops`` 0). ``steps`` caps either (0: no cap)."""

    tflops: float = 0.0
    minutes: float = 0.0
    steps: int = 0

    def __post_init__(self) -> None:
        if self.tflops <= 0 and self.minutes <= 0 and self.steps <= 0:
            raise ValueError("a training budget needs tflops, minutes or steps")


@dataclass
class TrainingLog:
    """What a budgeted run did: steps, time, the cost of one step and its losses."""

    steps: int = 0
    seconds: float = 0.0
    step_gflops: float = 0.0
    losses: list[float] = field(default_factory=list)

    def final_loss(self, window: int = 50) -> float:
        recent = self.losses[-window:]
        return sum(recent) / len(recent) if recent else math.nan

    def to_json(self, **extra: Any) -> dict[str, Any]:
        return {"steps": self.steps, "train_seconds": round(self.seconds, 1), "step_gflops": round(self.step_gflops, 3),
                "final_loss": round(self.final_loss(), 5), **extra}


def step_flops(step_loss: Callable[[], torch.Tensor]) -> tuple[float, torch.Tensor]:
    """FLOPs of one training step (forward + backward of ``step_loss``) and its loss; the
    gradients it leaves are the caller's to clear."""
    from torch.utils.flop_counter import FlopCounterMode

    counter = FlopCounterMode(display=False)
    with counter:
        loss = step_loss()
        loss.backward()  # type: ignore[no-untyped-call]
    return float(counter.get_total_flops()), loss.detach()


def learning_rate(peak: float, warmup: int, step: int, progress: float) -> float:
    """Linear warm-up over ``warmup`` steps, then a cosine from ``peak`` to a tenth of it as
    ``progress`` goes from 0 to 1."""
    warm = min(1.0, (step + 1) / max(1, warmup))
    return peak * warm * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress))))


def train_to_budget(step_loss: Callable[[], torch.Tensor], params: list[torch.nn.Parameter],
                    optimizer: torch.optim.Optimizer, budget: Budget, *, lr: float, warmup: int,
                    after_step: Callable[[int], None] | None = None, log: Callable[[str], None] = print,
                    log_every: int = 0, start_step: int = 0, spent_seconds: float = 0.0,
                    checkpoint: Callable[[TrainingLog], None] | None = None, checkpoint_minutes: float = 0.0,
                    synchronize: Callable[[], None] | None = None) -> TrainingLog:
    """Train until the budget is spent: AdamW steps with the warm-up + cosine schedule and
    gradient clipping at 1. A FLOP budget fixes the step count from the first step's cost; a
    time budget reads the clock (``synchronize`` waits for the GPU first, so that queued work
    counts). ``start_step`` and ``spent_seconds`` continue a resumed run's schedule;
    ``checkpoint`` is called every ``checkpoint_minutes`` and at the end."""
    result = TrainingLog(steps=start_step, seconds=spent_seconds)
    flops, _loss = step_flops(step_loss)
    optimizer.zero_grad(set_to_none=True)
    result.step_gflops = flops / 1e9
    steps = budget.steps or 0
    if budget.tflops > 0:
        by_flops = max(1, int(budget.tflops * 1e12 / flops))
        steps = min(steps, by_flops) if steps else by_flops
    seconds = budget.minutes * 60 if budget.minutes > 0 else math.inf
    every = log_every or (max(1, steps // 10) if steps else 100)
    started = time.monotonic()
    last_save = started
    first = start_step

    def elapsed() -> float:
        return spent_seconds + time.monotonic() - started

    while True:
        k = result.steps
        if steps and k >= steps:
            break
        if k % 10 == 0 and synchronize is not None and seconds < math.inf:
            synchronize()
        if elapsed() >= seconds:
            break
        progress = max(k / steps if steps else 0.0, elapsed() / seconds if seconds < math.inf else 0.0)
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(lr, warmup, k - first, progress)
        loss = step_loss()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()  # type: ignore[no-untyped-call]
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        if after_step is not None:
            after_step(k)
        result.steps = k + 1
        if synchronize is None or k % 10 == 0:  # reading a loss waits for the GPU: every 10th step there
            result.losses.append(float(loss.detach()))
        if result.steps % every == 0:
            result.seconds = elapsed()
            total = f"/{steps}" if steps else ""
            log(f"step {result.steps}{total} loss {result.final_loss(20):.4f} {result.seconds:.0f}s")
        if checkpoint is not None and checkpoint_minutes > 0 and time.monotonic() - last_save > checkpoint_minutes * 60:
            result.seconds = elapsed()
            checkpoint(result)
            last_save = time.monotonic()
    if synchronize is not None:
        synchronize()
    result.seconds = elapsed()
    if checkpoint is not None:
        checkpoint(result)
    return result


# -- scores -------------------------------------------------------------------------------------------
def load_judge(device: torch.device | str = "cpu") -> Any:
    """The shipped judge (``checkpoints/mini/judge.safetensors``), in eval mode, fp32."""
    from studio.engines.mini import weights
    from studio.engines.mini.judge import Judge

    judge = Judge(weights.model_config(weights.read_manifest(CHECKPOINT), CHECKPOINT).judge).eval()
    weights.load_float_into(judge, CHECKPOINT / weights.JUDGE)
    return judge.to(device)


def judge_readings(judge: Any, clips: torch.Tensor, batch: int = 32) -> dict[str, torch.Tensor]:
    """The judge's predicted class per head for clips (N, 3, T, H, W) at any size (on the
    judge's device; returned on the CPU)."""
    from studio.engines.mini.judge import HEADS

    device = next(judge.parameters()).device
    out: dict[str, list[torch.Tensor]] = {h: [] for h in HEADS}
    with torch.no_grad():
        for s in range(0, clips.shape[0], batch):
            reading = judge(clips[s:s + batch].to(device).float())
            for h in HEADS:
                out[h].append(reading.logits[h].argmax(1).cpu())
    return {h: torch.cat(v) for h, v in out.items()}


def accuracy(readings: dict[str, torch.Tensor], labels: torch.Tensor) -> dict[str, float]:
    """Per head, and motion + location + character at once; ``labels`` (N, 4) in HEADS order."""
    from studio.engines.mini.judge import HEADS

    hits = {h: readings[h] == labels[:, i].cpu() for i, h in enumerate(HEADS)}
    result = {h: round(float(v.float().mean()), 4) for h, v in hits.items()}
    result["all_three"] = round(float((hits["motion"] & hits["location"] & hits["character"]).float().mean()), 4)
    return result


def psnr(a: torch.Tensor, b: torch.Tensor, mask: torch.Tensor | None = None) -> float:
    """Mean PSNR (dB) over clips in [-1, 1]; ``mask`` (B, 1, 1, H, W) restricts to a region."""
    error = (a.float() - b.float()) ** 2 / 4.0
    if mask is None:
        mse = error.flatten(1).mean(1)
    else:
        m = mask.float().expand_as(error)
        mse = (error * m).flatten(1).sum(1) / m.flatten(1).sum(1).clamp(min=1)
    return float((-10 * torch.log10(mse.clamp(min=1e-10))).mean())


def frame_changes(clips: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """(B,) each clip's mean absolute change between consecutive frames, over the whole frame
    or inside ``mask`` (B, 1, 1, H, W): how much that clip moves."""
    change = (clips[:, :, 1:].float() - clips[:, :, :-1].float()).abs()
    if mask is None:
        return change.flatten(1).mean(1)
    m = mask.float().expand_as(change)
    return (change * m).flatten(1).sum(1) / m.flatten(1).sum(1).clamp(min=1)


def frame_change(clips: torch.Tensor, mask: torch.Tensor | None = None) -> float:
    """Mean absolute change between consecutive frames pooled over all clips (inside ``mask``,
    every masked pixel counts alike, so clips with a larger character weigh more)."""
    change = (clips[:, :, 1:].float() - clips[:, :, :-1].float()).abs()
    if mask is None:
        return float(change.mean())
    m = mask.float().expand_as(change)
    return float((change * m).sum() / m.sum().clamp(min=1))
