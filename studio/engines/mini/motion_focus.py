"""Spend more of the decoder's training on the motions it draws worst.

The decoder levels off with some motions never drawn (each lease's per-motion table), while
most others are read right. With ``TrainConfig.motion_focus`` above 0, a share of each decoder
and adaptation batch is drawn by motion, each motion in proportion to how often the motion
critic (our own reader of the motion on a latent, not the evaluation's judge) misreads the
decoder's own samples of that motion on *training* turns; the rest of the batch stays uniform.
The misreading is measured once, when the stage starts from a decoder that has not measured
it yet, and kept in the run's state so that a resumed run draws the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass

import torch

from studio.engines.mini.critic import MotionCritic
from studio.engines.mini.decoder import sample
from studio.engines.mini.decoders import DecoderNet

FLOOR = 0.05
"""The least weight a motion keeps (a motion the critic always reads right is still drawn)."""


@dataclass(frozen=True)
class MotionFocus:
    """Per-motion weights (indexed like ``MOTION_NAMES``) and the share of a batch they draw."""

    weights: tuple[float, ...]
    share: float

    def row_weights(self, motions: torch.Tensor) -> torch.Tensor:
        """Each training row's chance of being drawn in the focused part of a batch: its motion's
        weight shared among that motion's rows (so a common motion is not favoured)."""
        per_motion = torch.tensor(self.weights, dtype=torch.float64)
        counts = torch.bincount(motions.cpu(), minlength=len(self.weights)).to(torch.float64)
        rows = per_motion[motions.cpu()] / counts[motions.cpu()].clamp(min=1)
        return (rows / rows.sum()).to(torch.float32)

    def draw(self, generator: torch.Generator, size: int, rows: int, row_weights: torch.Tensor) -> torch.Tensor:
        """``size`` row indices below ``rows``: ``round(share * size)`` by ``row_weights``, the
        rest uniform (on the CPU, from the stage's generator)."""
        focused = round(self.share * size)
        uniform = torch.randint(0, rows, (size - focused,), generator=generator)
        if focused == 0:
            return uniform
        chosen = torch.multinomial(row_weights[:rows], focused, replacement=True, generator=generator)
        return torch.cat([chosen, uniform])


def critic_rows(index: torch.Tensor, split: bool) -> torch.Tensor:
    """The rows the critic trains on for drawn ``index``: with ``split``, each odd row gives way to
    the even row before it (so the odd rows stay unseen and the even ones are drawn evenly)."""
    return index - index % 2 if split else index


def reader_rows(rows: int, split: bool) -> torch.Tensor:
    """The training rows whose samples the focus may read: the odd rows when the critic was
    trained on the even ones, else all of them."""
    return torch.arange(1, rows, 2) if split else torch.arange(rows)


def weights_from_accuracy(correct: torch.Tensor, total: torch.Tensor) -> tuple[float, ...]:
    """A motion's weight is the share of its samples the critic misread (``FLOOR`` at least);
    a motion without samples gets the mean weight of the others."""
    seen = total > 0
    wrong = torch.where(seen, 1 - correct.float() / total.clamp(min=1).float(), torch.zeros_like(total).float())
    mean = float(wrong[seen].mean()) if bool(seen.any()) else 1.0
    return tuple(max(FLOOR, float(w) if bool(s) else mean) for w, s in zip(wrong, seen, strict=True))


@torch.no_grad()
def measure(decoder: DecoderNet, critic: MotionCritic, reps: torch.Tensor, levels: torch.Tensor,
            motions: torch.Tensor, *, steps: int, classes: int, generator: torch.Generator,
            autocast: Callable[[], AbstractContextManager[object]], batch: int = 256
            ) -> tuple[torch.Tensor, torch.Tensor]:
    """(correct, total) per motion: the critic's reading of the decoder's ``steps``-step samples
    (no guidance, as the engine samples) of the given training turns."""
    device = reps.device
    was_training = decoder.training
    decoder.eval()
    correct = torch.zeros(classes, dtype=torch.long)
    total = torch.zeros(classes, dtype=torch.long)
    try:
        for start in range(0, reps.shape[0], batch):
            rep, level = reps[start:start + batch], levels[start:start + batch]
            truth = motions[start:start + batch].cpu()
            noise = torch.randn((rep.shape[0], *decoder.canvas), generator=generator).to(device)
            with autocast():
                canvas = sample(decoder, rep, level, noise, steps, clamp=False)
                read = critic(canvas.float())[0].argmax(dim=1).cpu()
            total += torch.bincount(truth, minlength=classes)
            correct += torch.bincount(truth[read == truth], minlength=classes)
    finally:
        decoder.train(was_training)
    return correct, total


def describe(weights: Sequence[float], names: Sequence[str], top: int = 8) -> str:
    """The motions weighted most, for the log."""
    order = sorted(range(len(weights)), key=lambda i: -weights[i])[:top]
    return ", ".join(f"{names[i]} {weights[i]:.2f}" for i in order)
