"""A small causal video autoencoder: a latent space of our own for the mini decoder (issue 14).

The mini decoder's latent canvas when ``ModelConfig.latent`` is set (``train.py``'s
``autoencoder`` stage trains it with :class:`Windows` and :func:`reconstruction_loss`, which
``latent_experiment`` shares; that experiment measured whether it keeps what the judge
needs). The design follows CogVideoX's video VAE in its contract, not its size:

- **Causal in time.** A clip of ``1 + temporal * k`` frames becomes ``1 + k`` latent frames;
  latent frame ``t`` depends only on frames ``<= temporal * t`` (frame 0 alone makes latent 0,
  then each group of ``temporal`` frames one latent). Temporal convolutions pad the past with
  copies of the first frame (diffusers' ``CogVideoXCausalConv3d``), and normalisation is per
  frame (a GroupNorm over time would let later frames change earlier latents).
- **Cheap at high resolution.** The clip is first folded into ``patch`` x ``patch`` pixel
  cells; the high-resolution levels run per-frame 2-D ResNet blocks (diffusers
  ``ResnetBlock2D``, ``Downsample2D``, ``Upsample2D``); time is mixed only at the deepest
  level, where (2+1)-D causal blocks (a 3 x 3 spatial conv, then a causal temporal conv) and
  the temporal down/up-sampling run on few pixels. On a CPU the 3 x 3 x 3 convolutions of
  CogVideoX's blocks at full resolution would cost several times more.
- **Deterministic.** A plain autoencoder (no KL, no sampling): the mini decoder only needs a
  fixed, well-scaled target, so a small L2 penalty on the latent (``latent_penalty`` in the
  experiment) keeps its scale bounded instead of a KL term, which would also blur it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol, cast

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini.config import LatentConfig
from studio.engines.mini.dataset import to_float

__all__ = ["OCCUPANCY_GRID", "LatentConfig", "LossRecipe", "VideoAutoencoder", "WindowRecipe", "Windows",
           "cell_average", "character_mask", "parameter_count", "reconstruction_loss"]

OCCUPANCY_GRID = 14


def _per_frame(module: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    """Apply a 2-D module to each frame of (B, C, T, H, W)."""
    b, _c, t, h, w = x.shape
    y = module(x.transpose(1, 2).reshape(b * t, -1, h, w))
    return y.reshape(b, t, *y.shape[1:]).transpose(1, 2)


class FrameNorm(nn.GroupNorm):
    """GroupNorm over each frame separately (keeps the network causal in time)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() == 4:
            return super().forward(x)
        b, c, t, h, w = x.shape
        y = F.group_norm(x.transpose(1, 2).reshape(b * t, c, h, w), self.num_groups, self.weight, self.bias, self.eps)
        return y.reshape(b, t, c, h, w).transpose(1, 2)


class FrameBlock(nn.Module):
    """diffusers' 2-D ResNet block on every frame (no time embedding)."""

    def __init__(self, channels: int, groups: int) -> None:
        super().__init__()
        from diffusers.models.resnet import ResnetBlock2D

        self.block = ResnetBlock2D(in_channels=channels, out_channels=channels, temb_channels=None,  # type: ignore[arg-type]
                                   groups=groups)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _per_frame(lambda f: cast(torch.Tensor, self.block(f, None)), x)


class CausalBlock(nn.Module):
    """A (2+1)-D residual block: per-frame norm, 3 x 3 spatial conv, per-frame norm, causal
    temporal conv (diffusers' ``CogVideoXCausalConv3d``, which pads the past with the first
    frame). The temporal conv's output starts at zero so the block starts as a 2-D block."""

    def __init__(self, channels: int, groups: int, kernel: int) -> None:
        super().__init__()
        from diffusers.models.autoencoders.autoencoder_kl_cogvideox import CogVideoXCausalConv3d

        self.norm1 = FrameNorm(groups, channels, eps=1e-6)
        self.spatial = nn.Conv2d(channels, channels, 3, padding=1)
        self.norm2 = FrameNorm(groups, channels, eps=1e-6)
        self.temporal = CogVideoXCausalConv3d(channels, channels, (kernel, 1, 1))
        nn.init.zeros_(self.temporal.conv.weight)
        if self.temporal.conv.bias is not None:
            nn.init.zeros_(self.temporal.conv.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = _per_frame(self.spatial, F.silu(self.norm1(x)))
        out, _cache = self.temporal(F.silu(self.norm2(h)))
        return x + cast(torch.Tensor, out)


class TimeDown(nn.Module):
    """Halve the frames causally: frame 0 alone, then pairs (1, 2), (3, 4), ... each folded
    into channels and mixed by a 3 x 3 conv (1 + 2k frames -> 1 + k)."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2 * channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, c, t, h, w = x.shape
        first = x[:, :, :1]
        k = (t - 1) // 2
        # channel layout p * C + c for both the pairs and the first frame (copied)
        pairs = x[:, :, 1:].reshape(b, c, k, 2, h, w).permute(0, 3, 1, 2, 4, 5).reshape(b, 2 * c, k, h, w)
        folded = torch.cat([torch.cat([first, first], dim=1), pairs], dim=2)
        return _per_frame(self.conv, folded)


class TimeUp(nn.Module):
    """Double the frames causally (the inverse shape of :class:`TimeDown`: 1 + k -> 1 + 2k);
    latent frame 0 makes frame 0, each later latent frame two frames."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, 2 * channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, c, t, h, w = x.shape
        y = _per_frame(self.conv, x)  # (B, 2C, T, H, W)
        first = y[:, :c, :1]
        rest = y[:, :, 1:].reshape(b, 2, c, t - 1, h, w).permute(0, 2, 3, 1, 4, 5).reshape(b, c, 2 * (t - 1), h, w)
        return torch.cat([first, rest], dim=2)


class Encoder(nn.Module):
    def __init__(self, config: LatentConfig) -> None:
        super().__init__()
        from diffusers.models.downsampling import Downsample2D

        c = config.channels
        self.config = config
        self.conv_in = nn.Conv2d(3 * config.patch ** 2, c[0], 3, padding=1)
        self.levels = nn.ModuleList()
        for i, width in enumerate(c):
            level: list[nn.Module] = [FrameBlock(width, config.groups) for _ in range(config.blocks)]
            if i + 1 < len(c):
                level.append(Downsample2D(width, use_conv=True, out_channels=c[i + 1], padding=1))
            self.levels.append(nn.ModuleList(level))
        self.time = nn.ModuleList()
        for _ in range(int(math.log2(config.temporal))):
            self.time.append(TimeDown(c[-1]))
            self.time.extend(CausalBlock(c[-1], config.groups, config.temporal_kernel)
                             for _ in range(config.temporal_blocks))
        self.norm_out = FrameNorm(config.groups, c[-1], eps=1e-6)
        self.conv_out = nn.Conv2d(c[-1], config.latent_channels, 3, padding=1)

    def forward(self, clip: torch.Tensor) -> torch.Tensor:
        x = _per_frame(lambda f: self.conv_in(F.pixel_unshuffle(f, self.config.patch)), clip)
        for level in self.levels:
            for module in cast(nn.ModuleList, level):
                x = module(x) if isinstance(module, FrameBlock) else _per_frame(module, x)
        for module in self.time:
            x = module(x)
        return _per_frame(self.conv_out, F.silu(self.norm_out(x)))


class Decoder(nn.Module):
    def __init__(self, config: LatentConfig) -> None:
        super().__init__()
        from diffusers.models.upsampling import Upsample2D

        c = config.channels
        self.config = config
        self.conv_in = nn.Conv2d(config.latent_channels, c[-1], 3, padding=1)
        self.time = nn.ModuleList()
        for _ in range(int(math.log2(config.temporal))):
            self.time.extend(CausalBlock(c[-1], config.groups, config.temporal_kernel)
                             for _ in range(config.temporal_blocks))
            self.time.append(TimeUp(c[-1]))
        self.levels = nn.ModuleList()
        for i in reversed(range(len(c))):
            level: list[nn.Module] = [FrameBlock(c[i], config.groups) for _ in range(config.blocks)]
            if i > 0:
                level.append(Upsample2D(c[i], use_conv=True, out_channels=c[i - 1]))
            self.levels.append(nn.ModuleList(level))
        self.norm_out = FrameNorm(config.groups, c[0], eps=1e-6)
        self.conv_out = nn.Conv2d(c[0], 3 * config.patch ** 2, 3, padding=1)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        x = _per_frame(self.conv_in, latent)
        for module in self.time:
            x = module(x)
        for level in self.levels:
            for module in cast(nn.ModuleList, level):
                x = module(x) if isinstance(module, FrameBlock) else _per_frame(module, x)
        x = F.silu(self.norm_out(x))
        return _per_frame(lambda f: F.pixel_shuffle(self.conv_out(f), self.config.patch), x)


class VideoAutoencoder(nn.Module):
    """Clip (B, 3, 1 + temporal k, H, W) in [-1, 1] <-> latent (B, C, 1 + k, H / s, W / s)."""

    def __init__(self, config: LatentConfig) -> None:
        super().__init__()
        self.config = config
        self.encoder = Encoder(config)
        self.decoder = Decoder(config)

    def encode(self, clip: torch.Tensor) -> torch.Tensor:
        self.config.latent_shape(clip.shape[2], clip.shape[3], clip.shape[4])
        return cast(torch.Tensor, self.encoder(clip))

    def decode(self, latent: torch.Tensor) -> torch.Tensor:
        return cast(torch.Tensor, self.decoder(latent))

    def forward(self, clip: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(reconstruction, latent)."""
        latent = self.encode(clip)
        return self.decode(latent), latent


@torch.no_grad()
def encode_clips(autoencoder: VideoAutoencoder, clips_u8: torch.Tensor, batch: int, *,
                 device: torch.device | None = None, dtype: torch.dtype = torch.float32,
                 autocast: Callable[[], AbstractContextManager[Any]] = nullcontext) -> torch.Tensor:
    """Every clip's latent (N, C, T', H', W') from uint8 clips (N, T, H, W, 3), encoded in
    batches of ``batch`` on ``device`` (the autoencoder's by default), kept as ``dtype``."""
    device = device or next(autoencoder.parameters()).device
    n, frames, height, width, _c = clips_u8.shape
    shape = autoencoder.config.latent_shape(frames, height, width)
    table = torch.empty((n, *shape), dtype=dtype, device=device)
    for start in range(0, n, batch):
        with autocast():
            table[start:start + batch] = autoencoder.encode(to_float(clips_u8[start:start + batch].to(device)))
    return table


def parameter_count(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


# -- training windows and loss (the autoencoder stage and latent_experiment) -------------------------
class WindowRecipe(Protocol):
    """Where the training windows come from (``AutoencoderTraining``, ``latent_experiment.Variant``)."""

    @property
    def crop_frames(self) -> int: ...
    @property
    def crop_height(self) -> int: ...
    @property
    def crop_width(self) -> int: ...
    @property
    def on_character(self) -> float: ...


class LossRecipe(Protocol):
    """The reconstruction loss's knobs (``AutoencoderTraining``, ``latent_experiment.Variant``)."""

    @property
    def loss(self) -> str: ...
    @property
    def fg_weight(self) -> float: ...
    @property
    def temporal_weight(self) -> float: ...
    @property
    def temporal_loss(self) -> str: ...
    @property
    def latent_penalty(self) -> float: ...


def cell_average(canvas: torch.Tensor) -> torch.Tensor:
    """(B, C, T, H, W) averaged over 2 x 2 cells of each frame and spread back over them (H and
    W even)."""
    b, c, t, h, w = canvas.shape
    frames = canvas.transpose(1, 2).reshape(b * t, c, h, w)
    pooled = F.avg_pool2d(frames, 2)
    spread = pooled.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)
    return spread.reshape(b, t, c, h, w).transpose(1, 2)


def character_mask(occupancy: torch.Tensor, height: int, width: int) -> torch.Tensor:
    """(B, 196) occupancy -> (B, 1, 1, H, W) in [0, 1]: the character's cells with a one-cell margin."""
    grid = occupancy.reshape(-1, 1, OCCUPANCY_GRID, OCCUPANCY_GRID).float()
    grid = F.max_pool2d(grid, 3, stride=1, padding=1)
    return F.interpolate(grid, size=(height, width), mode="bilinear", align_corners=False).clamp(0, 1).unsqueeze(2)


class Windows:
    """Random training windows of ``batch`` clips from uint8 clips (N, T, H, W, 3) with the
    character's occupancy (N, 196); window corners on multiples of ``align`` (the latent's
    spatial factor), so a window's latent is a crop of the whole clip's."""

    def __init__(self, clips: torch.Tensor, occupancy: torch.Tensor, recipe: WindowRecipe, batch: int, align: int,
                 generator: torch.Generator | None = None) -> None:
        self.clips, self.occupancy, self.recipe, self.generator = clips, occupancy, recipe, generator
        self.size = batch
        _n, frames, height, width, _c = clips.shape
        self.frames = min(recipe.crop_frames, frames)
        self.height = min(recipe.crop_height, height)
        self.width = min(recipe.crop_width, width)
        self.align = align

    def _start(self, size: int, window: int, centre: float | None, g: torch.Generator) -> int:
        slots = (size - window) // self.align
        if centre is None:
            return int(torch.randint(0, slots + 1, (1,), generator=g)) * self.align
        return int(min(max(round((centre - window / 2) / self.align), 0), slots)) * self.align

    def batch(self, generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """(clips (B, 3, T, h, w) in [-1, 1], character mask (B, 1, 1, h, w)); ``generator``
        instead of the one given at construction (the trainer's loop hands each step its own)."""
        g = generator if generator is not None else self.generator
        if g is None:
            raise ValueError("Windows.batch needs a generator (none was given at construction)")
        index = torch.randint(0, self.clips.shape[0], (self.size,), generator=g)
        _n, frames, height, width, _c = self.clips.shape
        clips, masks = [], []
        for i in index.tolist():
            t0 = int(torch.randint(0, frames - self.frames + 1, (1,), generator=g))
            cy = cx = None
            cells = self.occupancy[i].reshape(OCCUPANCY_GRID, OCCUPANCY_GRID).nonzero()
            if len(cells) and float(torch.rand(1, generator=g)) < self.recipe.on_character:
                r, c = cells[int(torch.randint(0, len(cells), (1,), generator=g))].tolist()
                cy, cx = (r + 0.5) * height / OCCUPANCY_GRID, (c + 0.5) * width / OCCUPANCY_GRID
            y0 = self._start(height, self.height, cy, g)
            x0 = self._start(width, self.width, cx, g)
            clips.append(self.clips[i, t0:t0 + self.frames, y0:y0 + self.height, x0:x0 + self.width])
            mask = character_mask(self.occupancy[i:i + 1], height, width)  # one clip's: cheap at any set size
            masks.append(mask[0, :, :, y0:y0 + self.height, x0:x0 + self.width])
        return to_float(torch.stack(clips)), torch.stack(masks).to(self.clips.device)


def reconstruction_loss(recipe: LossRecipe, recon: torch.Tensor, clip: torch.Tensor, mask: torch.Tensor,
                        latent: torch.Tensor) -> torch.Tensor:
    """The recipe's loss: per-pixel (optionally character-weighted) error, optionally the same
    error on frame differences, plus the latent's L2 penalty."""
    weight = 1.0 + recipe.fg_weight * mask

    def error(a: torch.Tensor, b: torch.Tensor, w: torch.Tensor, kind: str) -> torch.Tensor:
        e = (a - b).abs() if kind == "l1" else (a - b) ** 2
        return (e * w).sum() / w.expand_as(e).sum()

    loss = error(recon, clip, weight, recipe.loss)
    if recipe.temporal_weight > 0:
        kind = recipe.temporal_loss or recipe.loss
        loss = loss + recipe.temporal_weight * error(recon.diff(dim=2), clip.diff(dim=2), weight, kind)
    return loss + recipe.latent_penalty * latent.pow(2).mean()
