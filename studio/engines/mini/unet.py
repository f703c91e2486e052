"""The video decoder as a small space-time U-Net on the latent, built from diffusers components.

The DiT (:mod:`.decoder`) sees the latent through 2 x 2 patches: one token for 16 x 16 pixels,
which its head must rebuild alone, and every part of the clip competes for the same attention.
This network keeps the latent's own resolution at its first level (diffusers ``ResnetBlock2D``
frame by frame, with a residual convolution over time at every cell), halves the space at each
further level, and adds space-time transformer blocks (the DiT's own block, with its adaLN
conditioning and cross-attention to the representation) only where the grid is coarse enough
for them to be cheap. Skip connections carry the fine detail (limbs, props) back to the output.

The interface is the DiT's: ``forward(noisy, t, level, rep)`` predicts the clean canvas, ``drop``
swaps in the learned null conditioning, and the same flow loss, sampler, adaptation and
distillation train and run it. Conditioning: noise level + motion level + pooled
representation (+ pooled text tokens) scale and shift every ResNet block (``scale_shift``) and
modulate every transformer block; the representation's first-frame grid, resized to the
latent's grid and projected, is concatenated to the input of every frame.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812
from diffusers.models.downsampling import Downsample2D
from diffusers.models.embeddings import TimestepEmbedding, Timesteps
from diffusers.models.resnet import ResnetBlock2D
from diffusers.models.upsampling import Upsample2D
from torch import nn

from studio.engines.mini.config import ModelConfig
from studio.engines.mini.decoder import DiTBlock, drop_conditioning, positions_3d

GRID_CHANNELS = 32
"""Channels of the projected first-frame grid concatenated to the noisy latent."""


def _groups(channels: int) -> int:
    """GroupNorm groups: 32 where the width allows, fewer for narrow levels."""
    return next(g for g in (32, 16, 8, 4, 2, 1) if channels % g == 0)


def per_frame(module: nn.Module, x: torch.Tensor, *args: torch.Tensor) -> torch.Tensor:
    """Apply a 2-D ``module`` to every frame of ``x`` (B, C, T, H, W); ``args`` are per clip
    (B, ...) and are repeated for each frame."""
    b, c, t, h, w = x.shape
    frames = x.transpose(1, 2).reshape(b * t, c, h, w)
    out: torch.Tensor = module(frames, *(a.repeat_interleave(t, dim=0) for a in args))
    return out.reshape(b, t, *out.shape[1:]).transpose(1, 2)


class TemporalMix(nn.Module):
    """A residual convolution over time (3 frames) at every cell; its output starts at zero."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(_groups(channels), channels, eps=1e-6)
        self.conv = nn.Conv3d(channels, channels, (3, 1, 1), padding=(1, 0, 0))
        nn.init.zeros_(self.conv.weight)
        assert self.conv.bias is not None
        nn.init.zeros_(self.conv.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = x + self.conv(F.silu(self.norm(x)))
        return out


class Level(nn.Module):
    """One level's work at one resolution: a ResNet block per frame, the mix over time, and
    (at the coarse levels) space-time transformer blocks conditioned like the DiT's."""

    def __init__(self, in_channels: int, channels: int, cond: int, rep_dim: int, attention: int,
                 heads: int, mlp_ratio: float) -> None:
        super().__init__()
        self.resnet = ResnetBlock2D(in_channels=in_channels, out_channels=channels, temb_channels=cond,
                                    groups=_groups(in_channels), groups_out=_groups(channels),
                                    time_embedding_norm="scale_shift")
        self.temporal = TemporalMix(channels)
        self.blocks = nn.ModuleList(DiTBlock(channels, heads, mlp_ratio) for _ in range(attention))
        self.adaln: nn.Sequential | None = None
        self.context: nn.Linear | None = None
        if attention:
            self.adaln = nn.Sequential(nn.SiLU(), nn.Linear(cond, 6 * channels))
            self.context = nn.Linear(rep_dim, channels)
            last = self.adaln[1]
            assert isinstance(last, nn.Linear)
            nn.init.zeros_(last.weight)
            nn.init.zeros_(last.bias)

    def forward(self, x: torch.Tensor, cond: torch.Tensor, rep: torch.Tensor) -> torch.Tensor:
        x = self.temporal(per_frame(self.resnet, x, cond))
        if not self.blocks:
            return x
        assert self.adaln is not None and self.context is not None
        b, c, t, h, w = x.shape
        tokens = x.flatten(2).transpose(1, 2) + positions_3d((t, h, w), c).to(x.device, x.dtype)
        modulation = self.adaln(cond)[:, None].unflatten(2, (6, -1))
        context = self.context(rep)
        for block in self.blocks:
            tokens = block(tokens, modulation, context)
        return tokens.transpose(1, 2).reshape(b, c, t, h, w)


class VideoUNet(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        dec, rep = config.decoder, config.representation
        self.config = config
        channels, _frames, height, width = config.canvas()
        widths = dec.widths
        if dec.param != "x":
            raise ValueError(f"decoder param {dec.param!r} is the DiT's; the U-Net predicts the clean canvas (x)")
        if not widths or not 0 <= dec.attn_levels <= len(widths):
            raise ValueError(f"a U-Net needs widths (got {widths}) and 0..{len(widths)} attention levels")
        scale = 2 ** (len(widths) - 1)
        if height % scale or width % scale:
            raise ValueError(f"the canvas {height} x {width} does not halve {len(widths) - 1} times")
        cond = dec.hidden
        self.time_proj = Timesteps(256, flip_sin_to_cos=True, downscale_freq_shift=0)
        self.time_embed = TimestepEmbedding(256, cond)
        self.level_embed = nn.Embedding(6, cond)  # 0: no level (dropped for guidance)
        self.rep_pool = nn.Sequential(nn.Linear(rep.dim, cond), nn.SiLU(), nn.Linear(cond, cond))
        self.text_pool = nn.Sequential(nn.Linear(rep.dim, cond), nn.SiLU(), nn.Linear(cond, cond))
        self.null_rep = nn.Parameter(torch.zeros(rep.tokens, rep.dim))
        self.rep_grid = nn.Linear(rep.dim, GRID_CHANNELS)
        self.conv_in = nn.Conv2d(channels + GRID_CHANNELS, widths[0], 3, padding=1)
        first_attention = len(widths) - dec.attn_levels
        self.down = nn.ModuleList()
        self.downsample = nn.ModuleList()
        previous = widths[0]
        for index, level_width in enumerate(widths):
            attention = 1 if index >= first_attention else 0
            self.down.append(Level(previous, level_width, cond, rep.dim, attention, dec.heads, dec.mlp_ratio))
            previous = level_width
            if index < len(widths) - 1:
                self.downsample.append(Downsample2D(level_width, use_conv=True, padding=1))
        self.mid = Level(previous, previous, cond, rep.dim, dec.mid_blocks, dec.heads, dec.mlp_ratio)
        self.up = nn.ModuleList()
        self.upsample = nn.ModuleList()
        for index in reversed(range(len(widths))):
            attention = 1 if index >= first_attention else 0
            if index < len(widths) - 1:
                self.upsample.append(Upsample2D(previous, use_conv=True))
            self.up.append(Level(previous + widths[index], widths[index], cond, rep.dim, attention, dec.heads,
                                 dec.mlp_ratio))
            previous = widths[index]
        self.norm_out = nn.GroupNorm(_groups(previous), previous, eps=1e-6)
        self.conv_out = nn.Conv2d(previous, channels, 3, padding=1)
        nn.init.zeros_(self.conv_out.weight)
        assert self.conv_out.bias is not None
        nn.init.zeros_(self.conv_out.bias)

    @property
    def canvas(self) -> tuple[int, int, int, int]:
        return self.config.canvas()

    def conditioning(self, t: torch.Tensor, level: torch.Tensor, rep: torch.Tensor) -> torch.Tensor:
        """(B, hidden): noise level + motion level + pooled representation + pooled text tokens."""
        text = rep[:, : self.config.representation.text_tokens]
        time = self.time_embed(self.time_proj(t * 1000.0).to(rep.dtype))
        out: torch.Tensor = time + self.level_embed(level) + self.rep_pool(rep.mean(dim=1)) + \
            self.text_pool(text.mean(dim=1))
        return out

    def first_frame_grid(self, rep: torch.Tensor, frames: int, height: int, width: int) -> torch.Tensor:
        """(B, GRID_CHANNELS, frames, H, W): the representation's first-frame grid at the canvas's size."""
        rows, cols = self.config.representation.image_grid
        image = rep[:, self.config.representation.text_tokens:]
        image = self.rep_grid(image).transpose(1, 2).reshape(rep.shape[0], GRID_CHANNELS, rows, cols)
        image = F.interpolate(image.float(), size=(height, width), mode="bilinear", align_corners=False)
        return image.to(rep.dtype)[:, :, None].expand(-1, -1, frames, -1, -1)

    def forward(self, noisy: torch.Tensor, t: torch.Tensor, level: torch.Tensor, rep: torch.Tensor) -> torch.Tensor:
        """Predict the clean canvas from ``noisy`` (B, C, T, H, W) at flow time ``t`` (B,) in [0, 1].
        ``level`` (B,) is 1..5 (0: none), ``rep`` (B, R, dim)."""
        _b, _c, frames, height, width = noisy.shape
        cond = self.conditioning(t, level, rep)
        grid = self.first_frame_grid(rep, frames, height, width).to(noisy.dtype)
        x = per_frame(self.conv_in, torch.cat([noisy, grid], dim=1))
        skips = []
        for index, level_net in enumerate(self.down):
            x = level_net(x, cond, rep)
            skips.append(x)
            if index < len(self.downsample):
                x = per_frame(self.downsample[index], x)
        x = self.mid(x, cond, rep)
        for index, level_net in enumerate(self.up):
            if index > 0:
                x = per_frame(self.upsample[index - 1], x)
            x = level_net(torch.cat([x, skips.pop()], dim=1), cond, rep)
        out: torch.Tensor = per_frame(self.conv_out, F.silu(per_frame(self.norm_out, x)))
        return out

    def drop(self, rep: torch.Tensor, level: torch.Tensor, keep: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Replace the representation and level of the samples where ``keep`` is false by the
        learned null ones (classifier-free guidance)."""
        return drop_conditioning(self.null_rep, rep, level, keep)
