"""A small causal video autoencoder: the latent space the issue proposes, for experiments.

Not used by the engine yet. The question it answers is whether a latent that compresses
space and time keeps the motion: an earlier autoencoder halved the movement between frames,
and a generator behind a latent can never beat what the latent's reconstructions keep.

Frames are encoded one by one by strided 2-D convolutions (``space`` x fewer rows and
columns), then pairs of frames are merged in time (``time`` x fewer frames) by a 3-D
convolution; the first frame stands alone, as in CogVideoX's causal layout: the clip is
padded at the front by repeating its first frame, so that T frames give
``ceil(T / time)`` latents (9 -> 5 at ``time`` 2, 17 -> 5 at ``time`` 4). The decoder mirrors
it and drops the padded frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True)
class AutoencoderConfig:
    space: int = 4
    """Spatial compression (a power of two: one stride-2 stage each)."""
    time: int = 2
    """Temporal compression (the frames merged into one latent)."""
    channels: int = 16
    """Latent channels."""
    width: int = 64
    """Channels at the latent grid's resolution (halved at each finer stage, at least 16)."""


class CausalConv3d(nn.Module):
    """A 3 x 3 x 3 convolution whose output at a frame sees only that frame and earlier ones
    (the clip is padded in time at the front, by repeating its first frame)."""

    def __init__(self, channels_in: int, channels_out: int) -> None:
        super().__init__()
        self.conv = nn.Conv3d(channels_in, channels_out, 3, padding=(0, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.cat([x[:, :, :1], x[:, :, :1], x], dim=2)
        out: torch.Tensor = self.conv(x)
        return out


def _stage_widths(config: AutoencoderConfig) -> list[int]:
    """Channels per spatial stage, finest first (one entry per stride-2 stage)."""
    stages = int(math.log2(config.space))
    if 2**stages != config.space:
        raise ValueError(f"spatial compression {config.space} is not a power of two")
    return [max(16, config.width >> (stages - 1 - k)) for k in range(stages)]


class VideoAutoencoder(nn.Module):
    def __init__(self, config: AutoencoderConfig) -> None:
        super().__init__()
        self.config = config
        widths = _stage_widths(config)
        encoder: list[nn.Module] = []
        previous = 3
        for width in widths:
            encoder += [nn.Conv2d(previous, width, 3, stride=2, padding=1), nn.SiLU(),
                        nn.Conv2d(width, width, 3, padding=1), nn.SiLU()]
            previous = width
        self.frame_encoder = nn.Sequential(*encoder)
        top = widths[-1]
        self.merge = nn.Conv3d(top, top, (config.time, 1, 1), stride=(config.time, 1, 1))
        self.to_latent = nn.Sequential(nn.SiLU(), CausalConv3d(top, top), nn.SiLU(), nn.Conv3d(top, config.channels, 1))
        self.from_latent = nn.Sequential(CausalConv3d(config.channels, top), nn.SiLU(), CausalConv3d(top, top),
                                         nn.SiLU())
        self.split = nn.ConvTranspose3d(top, top, (config.time, 1, 1), stride=(config.time, 1, 1))
        decoder: list[nn.Module] = [nn.SiLU()]
        for width, finer in zip(reversed(widths), [*reversed(widths[:-1]), 16], strict=True):
            decoder += [nn.Conv2d(width, width, 3, padding=1), nn.SiLU(), nn.Upsample(scale_factor=2.0),
                        nn.Conv2d(width, finer, 3, padding=1), nn.SiLU()]
        decoder.append(nn.Conv2d(16, 3, 3, padding=1))
        self.frame_decoder = nn.Sequential(*decoder)

    def padding(self, frames: int) -> int:
        """Frames repeated at the front so that the clip splits into whole groups."""
        return -frames % self.config.time

    def encode(self, clip: torch.Tensor) -> torch.Tensor:
        """(B, 3, T, H, W) in [-1, 1] -> (B, channels, ceil(T / time), H / space, W / space)."""
        pad = self.padding(clip.shape[2])
        if pad:
            clip = torch.cat([clip[:, :, :1].expand(-1, -1, pad, -1, -1), clip], dim=2)
        b, c, t, h, w = clip.shape
        frames = self.frame_encoder(clip.transpose(1, 2).reshape(b * t, c, h, w))
        frames = frames.unflatten(0, (b, t)).transpose(1, 2)
        latent: torch.Tensor = self.to_latent(self.merge(frames))
        return latent

    def decode(self, latent: torch.Tensor, frames: int) -> torch.Tensor:
        """The clip of ``frames`` frames (B, 3, T, H, W) a latent stands for."""
        x = self.split(self.from_latent(latent))
        b, c, t, h, w = x.shape
        out = self.frame_decoder(x.transpose(1, 2).reshape(b * t, c, h, w))
        clip: torch.Tensor = out.unflatten(0, (b, t)).transpose(1, 2)
        return clip[:, :, t - frames:]

    def forward(self, clip: torch.Tensor) -> torch.Tensor:
        return self.decode(self.encode(clip), clip.shape[2])


def reconstruction_loss(model: VideoAutoencoder, clip: torch.Tensor, weight: torch.Tensor,
                        temporal: float = 0.0) -> torch.Tensor:
    """Pixel-weighted squared error of the reconstruction, plus ``temporal`` times the error of
    its frame-to-frame changes (the movement an autoencoder tends to smooth away)."""
    out = model(clip)
    loss: torch.Tensor = (((out - clip) ** 2) * weight).mean() / weight.mean()
    if temporal > 0:
        change = (out.diff(dim=2) - clip.diff(dim=2)) ** 2
        loss = loss + temporal * (change * weight).mean() / weight.mean()
    return loss
