"""The decoder's canvas of a latent decoder: the autoencoder's latent, normalised.

The decoder's noise has unit variance in every channel, so its target should too. The shipped
decoders divide the latent by one spread for all channels (``ModelConfig.latent_scale``); a model
trained with ``decoder.channel_norm`` removes each channel's mean and divides by its own spread
(``latent_mean`` / ``latent_std``). Every place that turns latents into canvases or back goes
through these two functions, so the decoder, its critic and the runtime agree.
"""

from __future__ import annotations

import torch

from studio.engines.mini.config import ModelConfig


def _channel_stats(config: ModelConfig, like: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(mean, std), each shaped to broadcast over ``like``'s channel axis (axis 1)."""
    shape = (1, len(config.latent_std)) + (1,) * (like.dim() - 2)
    mean = torch.tensor(config.latent_mean, dtype=like.dtype, device=like.device).reshape(shape)
    std = torch.tensor(config.latent_std, dtype=like.dtype, device=like.device).reshape(shape)
    return mean, std


def to_canvas(config: ModelConfig, latent: torch.Tensor) -> torch.Tensor:
    """The decoder's canvas of ``latent`` (N, C, ...)."""
    if not config.latent_std:
        return latent / config.latent_scale
    mean, std = _channel_stats(config, latent)
    return (latent - mean) / std


def from_canvas(config: ModelConfig, canvas: torch.Tensor) -> torch.Tensor:
    """The latent the autoencoder decodes, from the decoder's ``canvas`` (N, C, ...)."""
    if not config.latent_std:
        return canvas * config.latent_scale
    mean, std = _channel_stats(config, canvas)
    return canvas * std + mean


def channel_stats(table: torch.Tensor, chunk: int = 512) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Each channel's mean and spread over a latent table (N, C, ...), summed in float64 a chunk
    of rows at a time (the table may be tens of GB of bfloat16 on the GPU)."""
    channels = table.shape[1]
    total = torch.zeros(channels, dtype=torch.float64, device=table.device)
    squares = torch.zeros(channels, dtype=torch.float64, device=table.device)
    count = 0
    for start in range(0, table.shape[0], chunk):
        rows = table[start:start + chunk].double().transpose(0, 1).reshape(channels, -1)
        total += rows.sum(dim=1)
        squares += (rows * rows).sum(dim=1)
        count += rows.shape[1]
    if count == 0:
        raise ValueError("no latents to measure")
    mean = total / count
    std = (squares / count - mean * mean).clamp(min=1e-12).sqrt()
    return tuple(float(v) for v in mean.cpu()), tuple(float(v) for v in std.cpu())
