"""Cheap previews of a clip while it is denoised, for decode's progress events.

A preview is the sampler's current estimate of the clean latents turned into colours by one
linear map of their channels (each latent pixel's RGB is a weighted sum of its channels plus
a bias): a few of the latent frames, at the latent's own resolution (an eighth of the clip's
side), as uint8 T x H x W x 3. It costs a matrix product over a few thousand latent pixels
and one small copy off the GPU, nothing beside a transformer pass.

The map's weights: where a VAE's are published (HunyuanVideo's), they are used; else they
are fitted to the loaded VAE itself (:class:`ColourFit`, least squares of colours on latent
values): first, at the first preview, to a latent made of blocks of constant random channel
values that the VAE decodes (the colour at each block's centre against the block's values:
the decoder's own response to each channel, no table to trust); then to every clip the
engine decodes (its final latents against its frames, averaged over each latent pixel), so
that the map follows what the model actually draws.

:class:`PreviewPacer` decides which steps send one: every few steps, about one a second of
denoising at most, never the last step (the clip itself comes next).

AnimeGamer and CustomX share this module.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import torch

PREVIEW_FRAMES = 3
"""Latent frames a preview shows (the first, the middle and the last): the window loops them."""
PREVIEW_INTERVAL_S = 1.0
"""About the least time between two previews."""
PREVIEW_MIN_GAP = 2
"""Steps between two previews at least: never every step."""
PREVIEWS_PER_CLIP = 4
"""A clip of many fast steps still sends about this many (each costs next to nothing)."""
FIT_BLOCKS = 6
"""The fitting latent is FIT_BLOCKS x FIT_BLOCKS blocks of constant values (36 samples)."""
FIT_BLOCK = 4
"""Side of a block, in latent pixels."""


@dataclass(frozen=True)
class LatentToRGB:
    """RGB in [-1, 1] = latents' channels @ ``factors`` (C x 3) + ``bias`` (3)."""

    factors: torch.Tensor
    bias: torch.Tensor

    @classmethod
    def of(cls, factors: Sequence[Sequence[float]], bias: Sequence[float]) -> LatentToRGB:
        return cls(torch.tensor(factors, dtype=torch.float32), torch.tensor(bias, dtype=torch.float32))

    @property
    def channels(self) -> int:
        return int(self.factors.shape[0])

    def frames(self, latents: torch.Tensor, count: int = PREVIEW_FRAMES) -> np.ndarray:
        """``latents`` C x T x H x W (one clip) -> uint8 frames count' x H x W x 3 (count'
        is at most ``count``: the first, middle and last latent frames)."""
        picked = _spread(int(latents.shape[1]), count)
        chosen = latents[:, picked].float()
        factors = self.factors.to(chosen.device)
        bias = self.bias.to(chosen.device)
        rgb = torch.einsum("cthw,cr->thwr", chosen, factors) + bias
        pixels = ((rgb.clamp(-1.0, 1.0) + 1.0) * 127.5).round().to(torch.uint8)
        return np.ascontiguousarray(pixels.cpu().numpy())


def _spread(total: int, count: int) -> list[int]:
    if total <= count:
        return list(range(total))
    return sorted({round(i * (total - 1) / (count - 1)) for i in range(count)}) if count > 1 else [total // 2]


RIDGE = 1e-3
"""Keeps the least squares solvable with few samples (it shrinks the weights a little)."""


class ColourFit:
    """Least squares of colours (in [-1, 1]) on latent channel values and 1, from samples
    added as they come (the sums of products are kept, not the samples)."""

    def __init__(self, channels: int) -> None:
        self.channels = channels
        self._xtx = torch.zeros(channels + 1, channels + 1, dtype=torch.float64)
        self._xty = torch.zeros(channels + 1, 3, dtype=torch.float64)
        self.samples = 0

    def add(self, values: torch.Tensor, colours: torch.Tensor) -> None:
        """``values`` N x C latent pixels, ``colours`` N x 3 in [-1, 1]."""
        inputs = torch.cat([values.double().cpu(), torch.ones(values.shape[0], 1, dtype=torch.float64)], dim=1)
        self._xtx += inputs.T @ inputs
        self._xty += inputs.T @ colours.double().cpu()
        self.samples += int(values.shape[0])

    def add_clip(self, latents: torch.Tensor, frames: np.ndarray, temporal: int) -> None:
        """A decoded clip: ``latents`` C x T x h x w as sampled, ``frames`` uint8 F x H x W x 3
        (H = h * s). Latent frame t is compared with the middle one of the frames it became (the
        first latent frame is the first frame alone, as a causal video VAE decodes it), each
        latent pixel with the mean colour of its s x s pixels."""
        channels, count, height, width = (int(n) for n in latents.shape)
        scale = frames.shape[1] // height
        if scale < 1 or frames.shape[2] // width != scale:
            return
        picked = [min(len(frames) - 1, max(0, temporal * t - temporal // 2)) for t in range(count)]
        pixels = torch.from_numpy(np.ascontiguousarray(frames[picked, :height * scale, :width * scale]))
        means = pixels.float().reshape(count, height, scale, width, scale, 3).mean(dim=(2, 4)) / 127.5 - 1.0
        self.add(latents.float().permute(1, 2, 3, 0).reshape(-1, channels), means.reshape(-1, 3))

    def solve(self) -> LatentToRGB:
        ridge = RIDGE * max(1, self.samples) * torch.eye(self.channels + 1, dtype=torch.float64)
        ridge[-1, -1] = 0.0  # the bias is not shrunk
        solution = torch.linalg.solve(self._xtx + ridge, self._xty).float()
        return LatentToRGB(solution[:self.channels].contiguous(), solution[self.channels].contiguous())


def fit_to_decoder(decode: Callable[[torch.Tensor], np.ndarray], channels: int, scale: int,
                   device: torch.device, seed: int = 0) -> ColourFit:
    """A fit to a decoder: ``decode`` takes latents 1 x C x 1 x h x w (the sampler's space)
    and gives uint8 frames T x H x W x 3 with H = h * ``scale``; the colour at each block's
    centre against the block's channel values."""
    generator = torch.Generator("cpu").manual_seed(seed)
    values = torch.randn(channels, FIT_BLOCKS, FIT_BLOCKS, generator=generator)
    side = FIT_BLOCKS * FIT_BLOCK
    latent = values.repeat_interleave(FIT_BLOCK, dim=1).repeat_interleave(FIT_BLOCK, dim=2)
    frames = decode(latent.reshape(1, channels, 1, side, side).to(device))
    image = torch.from_numpy(np.asarray(frames[0], dtype=np.float32)) / 127.5 - 1.0  # H x W x 3
    half = FIT_BLOCK * scale // 2
    quarter = max(1, half // 2)
    targets = [image[y - quarter:y + quarter, x - quarter:x + quarter].reshape(-1, 3).mean(dim=0)
               for y in range(half, side * scale, 2 * half) for x in range(half, side * scale, 2 * half)]
    fit = ColourFit(channels)
    fit.add(values.reshape(channels, -1).T, torch.stack(targets))
    return fit


class LatentPreviews:
    """The colour map of one loaded VAE for its previews: a ``published`` one, else one fitted
    to the VAE (``fit``, called at the first preview) and refined by every clip it decodes
    (:meth:`learn`). Made again when the engine loads other weights."""

    def __init__(self, fit: Callable[[], ColourFit], published: LatentToRGB | None = None) -> None:
        self._make_fit = fit
        self._fit: ColourFit | None = None
        self._map = published

    def frames(self, latents: torch.Tensor) -> np.ndarray:
        """A preview of ``latents`` (C x T x H x W, one clip), see :meth:`LatentToRGB.frames`."""
        if self._map is None:
            if self._fit is None:
                self._fit = self._make_fit()
            self._map = self._fit.solve()
        return self._map.frames(latents)

    def learn(self, latents: torch.Tensor, frames: np.ndarray, temporal: int) -> None:
        """A decoded clip refines a fitted map (see :meth:`ColourFit.add_clip`); a published
        map, or one not fitted yet, is left as it is."""
        if self._fit is not None:
            self._fit.add_clip(latents, frames, temporal)
            self._map = None


class PreviewPacer:
    """Which denoising steps send a preview: at least :data:`PREVIEW_MIN_GAP` steps apart,
    and as many steps apart as about :data:`PREVIEW_INTERVAL_S` of denoising takes (measured
    on the steps so far), but no more than a clip's steps over :data:`PREVIEWS_PER_CLIP`; never
    the last step. A clip of a few steps still sends one, on the step before the last."""

    def __init__(self, steps: int, clock: Callable[[], float] = time.perf_counter) -> None:
        self.steps = steps
        self._clock = clock
        self._began = clock()
        self._last = -1

    def due(self, index: int) -> bool:
        """Whether step ``index`` (0-based, just done) sends a preview."""
        if index >= self.steps - 1:
            return False
        per_step = (self._clock() - self._began) / (index + 1)
        timed = math.ceil(PREVIEW_INTERVAL_S / per_step) if per_step > 0 else self.steps
        gap = max(PREVIEW_MIN_GAP, min(timed, self.steps // PREVIEWS_PER_CLIP))
        if index - self._last < gap and not (self._last < 0 and index == self.steps - 2):
            return False
        self._last = index
        return True
