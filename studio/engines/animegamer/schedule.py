"""The release's sampler, written out: zero-SNR DDPM schedule, v-prediction, DPM-Solver++(2M) SDE.

What the release's SAT configuration does, step by step (``VPSDEDPMPP2MSampler`` with
``ZeroSNRDDPMDiscretization(shift_scale=3)``, ``DiscreteDenoiser`` + ``VideoScaling``,
``DynamicCFG(scale=6, exp=5)``):

- 1,000 linear betas from 0.00085 to 0.012 (in sqrt space); the cumulative alphas shifted
  by ``a / (3 - 2a)``.
- Sampling uses ``n`` timesteps ``linspace(999, 0, n, endpoint=False)`` (as ints); their sqrt
  alphas are rescaled to zero terminal SNR *over those n steps*.
- The denoiser snaps each sqrt alpha to the nearest entry of the same schedule rescaled over
  all 1,000 steps, and turns the model's v-prediction into ``x0 = a x - sqrt(1 - a^2) v``;
  the model sees the integer timestep.
- Guidance scale at timestep t: ``1 + 6 (1 - cos(pi ((n - t) / n) ** 5)) / 2`` (t is the
  DDPM timestep, not the step number: the release's, and diffusers' CogVideoX's, formula).
- DPM-Solver++(2M) SDE updates; the first step is first order, the last returns x0. The
  release draws fresh noise twice per middle step and uses the second draw; we draw in the
  same order so that a given noise stream gives the same samples.

Faster settings (opt-in, they change the output): fewer steps, guidance on the first part
of the steps only (one batch row instead of two afterwards).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

TRAIN_STEPS = 1000
SHIFT = 3.0

Denoise = Callable[[torch.Tensor, torch.Tensor, bool], torch.Tensor]
"""(x [B,...] float32, timestep [B] long, with_guidance) -> (v_uncond, v_cond) stacked, or v_cond alone."""
Noise = Callable[[tuple[int, ...]], torch.Tensor]


def _shifted_alphas_cumprod() -> np.ndarray:
    betas = np.linspace(0.00085**0.5, 0.012**0.5, TRAIN_STEPS, dtype=np.float64) ** 2
    alphas_cumprod = np.cumprod(1.0 - betas)
    result: np.ndarray = alphas_cumprod / (SHIFT + (1 - SHIFT) * alphas_cumprod)
    return result


def _zero_snr(sqrt_alphas: torch.Tensor) -> torch.Tensor:
    first, last = sqrt_alphas[0].clone(), sqrt_alphas[-1].clone()
    return (sqrt_alphas - last) * (first / (first - last))


def timesteps(steps: int) -> np.ndarray:
    """The DDPM timesteps the sampler visits, in increasing order (the release's spacing)."""
    if not 1 <= steps <= TRAIN_STEPS:
        raise ValueError(f"steps must be 1..{TRAIN_STEPS}, got {steps}")
    spaced: np.ndarray = np.linspace(TRAIN_STEPS - 1, 0, steps, endpoint=False).astype(int)[::-1]
    return spaced


def denoiser_table() -> torch.Tensor:
    """sqrt alpha of every training timestep (index = timestep), zero-SNR over all 1,000."""
    table = torch.tensor(_shifted_alphas_cumprod(), dtype=torch.float32).sqrt()
    return _zero_snr(table)


def guidance_scale(scale: float, timestep: int, steps: int) -> float:
    return 1 + scale * (1 - math.cos(math.pi * ((steps - timestep) / steps) ** 5.0)) / 2


@dataclass(frozen=True, slots=True)
class SamplerOptions:
    steps: int = 50
    guidance: float = 6.0
    dynamic_guidance: bool = True
    guidance_steps: int | None = None
    """Use guidance on the first this many steps only (None: all)."""


def sample(denoise: Denoise, noise: Noise, shape: tuple[int, ...], options: SamplerOptions,
           on_step: Callable[[int, int, torch.Tensor], None] | None = None) -> torch.Tensor:
    """Latents [B, T, C, H, W] (float32) from ``noise(shape)``; ``on_step(i, n, x0)`` after each step."""
    n = options.steps
    ts = timesteps(n)
    subset = torch.tensor(_shifted_alphas_cumprod()[ts], dtype=torch.float32).sqrt()
    alphas = torch.cat([_zero_snr(subset).flip(0), torch.ones(1)])  # noisy -> clean, then 1
    visit = torch.tensor(ts[::-1].copy(), dtype=torch.long)  # timesteps from 999 down
    table = denoiser_table()
    x = noise(shape).float()
    old: torch.Tensor | None = None
    guided_steps = n if options.guidance_steps is None else options.guidance_steps
    for i in range(n):
        a, a_next = alphas[i], alphas[i + 1]
        a_prev = alphas[i - 1] if i > 0 else None
        t = int(visit[i])
        quantized = table[(a - table).abs().argmin()]
        timestep = torch.full((shape[0],), t, dtype=torch.long)
        guided = i < guided_steps and options.guidance != 1.0
        v = denoise(x, timestep, guided).float()
        c_skip, c_out = quantized, -((1 - quantized**2) ** 0.5)
        if guided:
            v_uncond, v_cond = v.chunk(2)
            x0_uncond, x0_cond = v_uncond * c_out + x * c_skip, v_cond * c_out + x * c_skip
            scale = guidance_scale(options.guidance, t, n) if options.dynamic_guidance else options.guidance
            x0 = x0_uncond + scale * (x0_cond - x0_uncond)
        else:
            x0 = v * c_out + x * c_skip
        if i == n - 1:  # the release returns the last denoised estimate as it is
            x = x0
        else:
            x = _dpmpp_2m_sde(x, x0, old, a_prev, a, a_next, noise)
            old = x0
        if on_step is not None:
            on_step(i, n, x0)
    return x


def _lambda(a: torch.Tensor) -> torch.Tensor:
    return ((a**2) / (1 - a**2)) ** 0.5


def _dpmpp_2m_sde(x: torch.Tensor, x0: torch.Tensor, old: torch.Tensor | None, a_prev: torch.Tensor | None,
                  a: torch.Tensor, a_next: torch.Tensor, noise: Noise) -> torch.Tensor:
    lamb, lamb_next = _lambda(a).log(), _lambda(a_next).log()
    h = lamb_next - lamb
    mult1 = ((1 - a_next**2) / (1 - a**2)) ** 0.5 * (-h).exp()
    mult2 = (-2 * h).expm1() * a_next
    noise_scale = (1 - a_next**2) ** 0.5 * (1 - (-2 * h).exp()) ** 0.5
    standard = mult1 * x - mult2 * x0 + noise_scale * noise(tuple(x.shape))
    if old is None or a_prev is None:
        return standard
    r = (lamb - _lambda(a_prev).log()) / h
    x0_corrected = (1 + 1 / (2 * r)) * x0 - (1 / (2 * r)) * old
    return mult1 * x - mult2 * x0_corrected + noise_scale * noise(tuple(x.shape))
