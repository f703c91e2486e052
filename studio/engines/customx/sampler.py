"""Flow-matching Euler sampling with real guidance, continuation and step reuse.

The schedule is the release's: sigmas 1 .. 1/steps shifted by ``shift`` (13), one Euler step
each (diffusers' ``FlowMatchEulerDiscreteScheduler``). Guidance runs the unconditional and
conditional rows in one batch. Continuation: the previous clip's latents overwrite the first
latent frames before the first step and after every step. Step reuse (DeepCache) follows
the release's schedule at 30 steps (full passes on steps 0-10, 13, 16, 19, 22-29), scaled
to other step counts.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

Denoise = Callable[[torch.Tensor, torch.Tensor, bool], torch.Tensor]
"""(latents with the guidance rows, timesteps, reuse) -> velocity."""


@dataclass(frozen=True, slots=True)
class SamplerOptions:
    steps: int = 30
    guidance: float = 7.5
    shift: float = 13.0
    deepcache: bool = False


def full_pass_steps(steps: int) -> set[int]:
    """Steps that run the whole transformer under DeepCache (22 of 30 for the release)."""
    head = math.ceil(steps * 11 / 30)
    tail = steps - math.ceil(steps * 8 / 30)
    return {i for i in range(steps) if i < head or i >= tail or (i - head) % 3 == 2}


def scheduler(options: SamplerOptions, device: torch.device) -> object:
    from diffusers import FlowMatchEulerDiscreteScheduler

    chosen: Any = FlowMatchEulerDiscreteScheduler(num_train_timesteps=1000,  # type: ignore[no-untyped-call]
                                                  shift=options.shift)
    sigmas = np.linspace(1.0, 0.0, options.steps + 1)[:-1]
    chosen.set_timesteps(sigmas=sigmas.tolist(), device=device)
    return chosen


Estimate = Callable[[], torch.Tensor]
"""The clean latents as the step just done sees them (computed only when called)."""


def _no_step(_index: int, _estimate: Estimate) -> None:
    pass


def sample(denoise: Denoise, noise: torch.Tensor, options: SamplerOptions,
           keep: torch.Tensor | None = None, on_step: Callable[[int, Estimate], None] = _no_step) -> torch.Tensor:
    """Latents after ``options.steps`` steps from ``noise``; ``keep`` (B x C x K x H x W)
    overwrites the first K latent frames before the first step and after each. ``on_step(i,
    estimate)`` after each step: ``estimate()`` is that step's estimate of the clean latents
    (x - sigma v, flow matching), for a preview."""
    chosen = scheduler(options, noise.device)
    latents = noise.float()
    frames = 0 if keep is None else keep.shape[2]
    if keep is not None:
        latents[:, :, :frames] = keep.float()
    full = full_pass_steps(options.steps) if options.deepcache else set(range(options.steps))
    guided = options.guidance > 1.0
    for index, timestep in enumerate(chosen.timesteps):  # type: ignore[attr-defined]
        rows = torch.cat([latents, latents]) if guided else latents
        t = timestep.expand(rows.shape[0]).to(noise.device)
        velocity = denoise(rows, t, index not in full).float()
        if guided:
            uncond, cond = velocity.chunk(2)
            velocity = uncond + options.guidance * (cond - uncond)
        noisy = latents
        latents = chosen.step(velocity, timestep, latents, return_dict=False)[0]  # type: ignore[attr-defined]
        if keep is not None:
            latents[:, :, :frames] = keep.float()
        sigma = float(chosen.sigmas[index])  # type: ignore[attr-defined]

        def estimate(x: torch.Tensor = noisy, v: torch.Tensor = velocity, s: float = sigma) -> torch.Tensor:
            clean = x - s * v
            if keep is not None:  # the carried frames are known
                clean[:, :, :frames] = keep.float()
            return clean

        on_step(index, estimate)
    return latents
