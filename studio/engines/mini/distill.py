"""Few-step distillation of the video decoder: a student that makes in K Euler steps what
the trained decoder (the teacher) makes in K x m steps, optionally with its guidance.

The teacher's sampling times nest the student's: :func:`~.decoder.flow_times` maps a uniform
grid through the same shift, so the teacher's time ``k * m`` is the student's time ``k``. For a
batch of conditions and noise, the teacher's trajectory is run once without gradients and kept
at the student's K + 1 boundaries; the student then learns, from each boundary, the one Euler
step that lands on the teacher's next boundary. With x-prediction that step is a target
canvas: from ``z`` at time ``a`` to ``z'`` at time ``b`` the Euler step needs the prediction
``z + (z' - z) (1 - a) / (b - a)`` (at the last boundary, ``b = 1``, the teacher's canvas
itself). Regressing on it is the segment-wise trajectory distillation of progressive and
consistency-trajectory methods: what a few GPU minutes can train, and deterministic to check.
It can only copy the teacher; :mod:`.adversary` adds a term that compares the student's
predictions with real clips, to go past it.

No clips are needed, only the conditions the sampler will see (the LM's predicted
representations and levels); the student starts from the teacher's weights.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch
from torch import nn

from studio.engines.mini.decoder import Decoder, euler_step, flow_times, guided

if TYPE_CHECKING:
    from studio.engines.mini.adversary import Adversary
    from studio.engines.mini.critic import CriticTerm


@dataclass(frozen=True)
class Trajectory:
    """The teacher's states (K + 1, B, C, T, H, W) at the student's times (K + 1 floats, 0 = noise)."""

    states: torch.Tensor
    times: tuple[float, ...]

    @property
    def segments(self) -> int:
        return len(self.times) - 1


@torch.no_grad()
def teacher_trajectory(teacher: nn.Module, null: Decoder, rep: torch.Tensor, level: torch.Tensor,
                       noise: torch.Tensor, student_steps: int, teacher_steps: int,
                       guidance: float = 1.0) -> Trajectory:
    """Run the teacher's Euler sampler from ``noise`` and keep its states at the student's times."""
    if student_steps < 1 or teacher_steps % student_steps:
        raise ValueError(f"the teacher's steps ({teacher_steps}) must be a multiple of the student's ({student_steps})")
    per = teacher_steps // student_steps
    times = flow_times(teacher_steps)
    z = noise
    kept = [z]
    for k in range(teacher_steps):
        t = torch.full((z.shape[0],), times[k], device=z.device, dtype=z.dtype)
        z = euler_step(z, guided(teacher, null, z, t, level, rep, guidance).to(z.dtype), times[k], times[k + 1])
        if (k + 1) % per == 0:
            kept.append(z)
    return Trajectory(torch.stack(kept), tuple(times[::per]))


def step_target(start: torch.Tensor, end: torch.Tensor, a: float, b: float) -> torch.Tensor:
    """The clean-canvas prediction whose :func:`~.decoder.euler_step` from ``start`` at time
    ``a`` reaches ``end`` at time ``b`` (that step solved for its prediction)."""
    return start + (end - start) * (max(1.0 - a, 1e-3) / (b - a))


def distill_loss(student: nn.Module, trajectory: Trajectory, rep: torch.Tensor, level: torch.Tensor,
                 weight: torch.Tensor, segments: list[int] | None = None,
                 critic: CriticTerm | None = None, adversary: Adversary | None = None) -> torch.Tensor:
    """Mean over the chosen ``segments`` (default all) of the weighted squared error between the
    student's prediction at a boundary and the target that steps it onto the teacher's next
    boundary. ``weight`` (B, 1, 1, H, W) weighs the canvas's cells, as the flow loss does. With
    ``critic`` (and a balance above 0) each segment also gets the motion critic's term, the
    teacher's final canvas standing for the clip (:mod:`.critic`); with ``adversary``, the
    adversary's (:mod:`.adversary`), which also keeps each prediction for its own update."""
    chosen = list(range(trajectory.segments)) if segments is None else segments
    if not chosen:
        raise ValueError("no segment to distill")
    total = torch.zeros((), device=rep.device)
    for k in chosen:
        a, b = trajectory.times[k], trajectory.times[k + 1]
        start, end = trajectory.states[k], trajectory.states[k + 1]
        t = torch.full((start.shape[0],), a, device=start.device, dtype=start.dtype)
        x_pred = student(start, t, level, rep)
        target = step_target(start.float(), end.float(), a, b)
        error = ((x_pred.float() - target) ** 2 * weight).mean() / weight.mean()
        if critic is not None:
            error = critic.added_to(error, x_pred, trajectory.states[-1], t)
        if adversary is not None:
            error = adversary.added_to(error, x_pred)
        total = total + error
    return total / len(chosen)
