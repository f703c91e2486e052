"""The video decoder: a small adaLN DiT over pixel or latent patches, built from diffusers components.

It works on a "canvas" (``ModelConfig.canvas``): the clip's pixels (3 x T x H x W in [-1, 1]),
or, when the config has a ``latent``, the autoencoder's latent of the clip (normalised, see
:mod:`.canvas`; the runtime decodes it to pixels). The canvas is cut into space-time
patches (``patch`` x ``patch`` cells x ``tpatch`` frames; 17 frames are padded to a multiple
of ``tpatch`` by repeating the last), one token each, with fixed 3-D sin/cos positions. Every block is conditioned
twice: adaLN modulation from (noise level + motion level + pooled representation), one
shared projection plus a learned table per block (PixArt's adaLN-single), and
cross-attention to the representation tokens. With ``spatial_rep`` the representation's
first-frame grid is also resized to the token grid and added to every time slice's tokens:
the image tokens describe the frame region by region, and a path that keeps that layout is
learnt far sooner than one that must find it through attention. The network predicts the clean clip
(x-prediction, as "Back to Basics" / JiT does for high-dimensional pixel patches); a small
per-token MLP head turns a token back into its patch.

Sampling follows the rectified flow from noise (t = 0) to the clip (t = 1) in a few Euler
steps (:func:`sample`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

import torch
import torch.nn.functional as F  # noqa: N812
from diffusers.models.attention import FeedForward
from diffusers.models.attention_processor import Attention
from diffusers.models.embeddings import TimestepEmbedding, Timesteps
from torch import nn

from studio.engines.mini.config import ModelConfig

if TYPE_CHECKING:
    from studio.engines.mini.adversary import Adversary
    from studio.engines.mini.critic import CriticTerm

PARAMS = ("x", "skip")
"""What a decoder network's output may be (``DecoderConfig.param``)."""

ADDED_PARTS = ("rep_grid.", "text_pool.", "refiner.", "motion_path.")
"""Parameter prefixes of paths that later configs added (zero-initialised: a checkpoint
made without them starts unchanged when they are switched on)."""


class Decoder(Protocol):
    """What the sampler, the losses and the trainer need of a decoder network (the DiT here,
    or :class:`.unet.VideoUNet`)."""

    config: ModelConfig

    def __call__(self, noisy: torch.Tensor, t: torch.Tensor, level: torch.Tensor, rep: torch.Tensor) -> torch.Tensor:
        ...

    def drop(self, rep: torch.Tensor, level: torch.Tensor, keep: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        ...


def skip_weights(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(c_in, c_skip, c_out) at flow times ``t`` for a canvas and noise of unit variance each.

    The noisy canvas ``z = t x + (1 - t) n`` has variance ``v = t^2 + (1 - t)^2``; ``c_in = 1 /
    sqrt(v)`` brings the network's input to unit variance, and ``c_skip = t / v``, ``c_out = (1 - t)
    / sqrt(v)`` make ``(x - c_skip z) / c_out``, what the network is asked for, of unit variance at
    every flow time (EDM's preconditioning, written for the rectified flow): at t = 1 the
    prediction is the input itself, at t = 0 the network's output alone."""
    v = t * t + (1 - t) * (1 - t)
    root = v.rsqrt()
    return root, t / v, (1 - t) * root


def _sincos(positions: torch.Tensor, dim: int) -> torch.Tensor:
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    angles = positions.float()[:, None] * freqs[None]
    return torch.cat([angles.sin(), angles.cos()], dim=1)


def positions_3d(grid: tuple[int, int, int], dim: int) -> torch.Tensor:
    """Fixed (T*H*W, dim) sin/cos positions: a quarter of the width for time, the rest
    split between rows and columns."""
    t, h, w = grid
    dt = dim // 4 // 2 * 2
    dh = (dim - dt) // 2 // 2 * 2
    dw = dim - dt - dh
    tt, hh, ww = torch.meshgrid(torch.arange(t), torch.arange(h), torch.arange(w), indexing="ij")
    return torch.cat([_sincos(tt.flatten(), dt), _sincos(hh.flatten(), dh), _sincos(ww.flatten(), dw)], dim=1)


def block_count(state: Mapping[str, torch.Tensor]) -> int:
    """How many DiT blocks a decoder state dict holds (``blocks.N.`` keys)."""
    indices = {int(name.split(".")[1]) for name in state if name.startswith("blocks.")}
    return max(indices) + 1 if indices else 0


def _last_linear(module: nn.Module) -> nn.Linear:
    layers = [m for m in module.modules() if isinstance(m, nn.Linear)]
    if not layers:
        raise TypeError(f"{type(module).__name__} has no linear layer")
    return layers[-1]


class DiTBlock(nn.Module):
    def __init__(self, hidden: int, heads: int, mlp_ratio: float) -> None:
        super().__init__()
        self.table = nn.Parameter(torch.zeros(6, hidden))
        self.norm1 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.attn = Attention(query_dim=hidden, heads=heads, dim_head=hidden // heads, bias=True, qk_norm="rms_norm")
        self.norm2 = nn.LayerNorm(hidden, eps=1e-6)
        self.cross = Attention(query_dim=hidden, cross_attention_dim=hidden, heads=heads, dim_head=hidden // heads,
                               bias=True, qk_norm="rms_norm")
        self.norm3 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.ff = FeedForward(hidden, inner_dim=int(hidden * mlp_ratio), activation_fn="gelu-approximate")

    def forward(self, x: torch.Tensor, modulation: torch.Tensor, context: torch.Tensor) -> torch.Tensor:
        """``modulation`` (B, L, 6, hidden): L is 1 (one modulation for every token) or the
        number of tokens (per-token modulation)."""
        shift1, scale1, gate1, shift2, scale2, gate2 = (modulation + self.table).unbind(2)
        h = self.norm1(x) * (1 + scale1) + shift1
        x = x + gate1 * self.attn(h)
        x = x + self.cross(self.norm2(x), encoder_hidden_states=context)
        h = self.norm3(x) * (1 + scale2) + shift2
        out: torch.Tensor = x + gate2 * self.ff(h)
        return out


class VideoDiT(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        dec, rep = config.decoder, config.representation
        self.config = config
        channels, frames, height, width = config.canvas()
        if height % dec.patch or width % dec.patch:
            what = "latent" if config.latent is not None else "clip"
            raise ValueError(f"the {what} size {height} x {width} is not a multiple of {dec.patch}")
        self.padded_frames = math.ceil(frames / dec.tpatch) * dec.tpatch
        self.grid = (self.padded_frames // dec.tpatch, height // dec.patch, width // dec.patch)
        self.patch_dim = channels * dec.tpatch * dec.patch * dec.patch
        if dec.param not in PARAMS:
            raise ValueError(f"unknown decoder param {dec.param!r} ({', '.join(PARAMS)})")
        hidden = dec.hidden
        self.embed = nn.Linear(self.patch_dim, hidden)
        self.register_buffer("position", positions_3d(self.grid, hidden), persistent=False)
        self.time_proj = Timesteps(256, flip_sin_to_cos=True, downscale_freq_shift=0)
        self.time_embed = TimestepEmbedding(256, hidden)
        self.level_embed = nn.Embedding(6, hidden)  # 0: no level (dropped for guidance)
        self.rep_pool = nn.Sequential(nn.Linear(rep.dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.rep_context = nn.Linear(rep.dim, hidden)
        self.null_rep = nn.Parameter(torch.zeros(rep.tokens, rep.dim))
        self.rep_grid: nn.Linear | None = None
        if dec.spatial_rep:
            self.rep_grid = nn.Linear(rep.dim, hidden)
            nn.init.zeros_(self.rep_grid.weight)  # starts as a no-op: older weights keep working
            nn.init.zeros_(self.rep_grid.bias)
        self.text_pool: nn.Sequential | None = None
        if dec.text_cond:
            self.text_pool = nn.Sequential(nn.Linear(rep.dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        if dec.motion_path not in ("", "tokens", "adaln"):
            raise ValueError(f"unknown decoder motion_path {dec.motion_path!r} ('', tokens, adaln)")
        self.motion_path: nn.Sequential | None = None
        if dec.motion_path:
            self.motion_path = nn.Sequential(nn.Linear(rep.dim, hidden), nn.SiLU(),
                                             nn.Linear(hidden, self.grid[0] * hidden))
        self.refiner: nn.Sequential | None = None
        if dec.refine > 0:
            # its input: the head's canvas, the noisy canvas and the flow time as a constant plane
            self.refiner = nn.Sequential(nn.Conv2d(2 * channels + 1, dec.refine, 3, padding=1), nn.GELU(),
                                         nn.Conv2d(dec.refine, dec.refine, 3, padding=1), nn.GELU(),
                                         nn.Conv2d(dec.refine, channels, 3, padding=1))
        self.adaln = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 6 * hidden))
        self.blocks = nn.ModuleList(DiTBlock(hidden, dec.heads, dec.mlp_ratio) for _ in range(dec.layers))
        self.norm_out = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.out_table = nn.Parameter(torch.zeros(2, hidden))
        self.out_adaln = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 2 * hidden))
        self.head = nn.Sequential(nn.Linear(hidden, dec.head_hidden), nn.GELU(approximate="tanh"),
                                  nn.Linear(dec.head_hidden, self.patch_dim))
        zeroed: list[nn.Module] = [self.adaln[1], self.out_adaln[1]]
        if self.text_pool is not None:
            zeroed.append(self.text_pool[2])
        if self.motion_path is not None:
            zeroed.append(self.motion_path[2])
        if self.refiner is not None:
            zeroed.append(self.refiner[4])
        for layer in zeroed:  # start as no-ops (the added paths leave a loaded decoder unchanged)
            assert isinstance(layer, nn.Linear | nn.Conv2d) and layer.bias is not None
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)

    def make_blocks_identity(self, indices: range) -> None:
        """Blocks ``indices`` start as identities: their attention, cross-attention and MLP
        outputs are zeroed, so a decoder grown deeper from a trained one (the new blocks
        appended) first makes exactly what the trained one made, then learns to use them."""
        for index in indices:
            block = self.blocks[index]
            assert isinstance(block, DiTBlock)
            for part in (block.attn.to_out, block.cross.to_out, block.ff):
                layer = _last_linear(part)
                nn.init.zeros_(layer.weight)
                if layer.bias is not None:
                    nn.init.zeros_(layer.bias)

    @property
    def canvas(self) -> tuple[int, int, int, int]:
        """(C, T, H, W) of what this decoder makes: pixels (3, frames, height, width) or the latent."""
        return self.config.canvas()

    # -- patches ------------------------------------------------------------------------------------
    def patchify(self, clip: torch.Tensor) -> torch.Tensor:
        """(B, C, T, H, W) canvas -> (B, N, patch_dim), padding T with the last frame."""
        dec = self.config.decoder
        b, c, t, _h, _w = clip.shape
        if t < self.padded_frames:
            clip = torch.cat([clip, clip[:, :, -1:].expand(-1, -1, self.padded_frames - t, -1, -1)], dim=2)
        gt, gh, gw = self.grid
        x = clip.reshape(b, c, gt, dec.tpatch, gh, dec.patch, gw, dec.patch)
        x = x.permute(0, 2, 4, 6, 1, 3, 5, 7)
        return x.reshape(b, gt * gh * gw, self.patch_dim)

    def unpatchify(self, tokens: torch.Tensor) -> torch.Tensor:
        dec = self.config.decoder
        channels, frames, _h, _w = self.canvas
        b = tokens.shape[0]
        gt, gh, gw = self.grid
        x = tokens.reshape(b, gt, gh, gw, channels, dec.tpatch, dec.patch, dec.patch)
        x = x.permute(0, 4, 1, 5, 2, 6, 3, 7).reshape(b, channels, gt * dec.tpatch, gh * dec.patch, gw * dec.patch)
        return x[:, :, :frames]

    # -- network ------------------------------------------------------------------------------------
    def conditioning(self, t: torch.Tensor, level: torch.Tensor, rep: torch.Tensor
                     ) -> tuple[torch.Tensor, torch.Tensor]:
        """(adaLN conditioning (B, hidden), cross-attention context (B, R, hidden))."""
        time = self.time_embed(self.time_proj(t * 1000.0).to(rep.dtype))
        cond = time + self.level_embed(level) + self.rep_pool(rep.mean(dim=1))
        if self.text_pool is not None:
            cond = cond + self.text_pool(rep[:, : self.config.representation.text_tokens].mean(dim=1))
        return cond, self.rep_context(rep)

    def slice_offsets(self, rep: torch.Tensor) -> torch.Tensor:
        """(B, time slices, hidden): the motion path's vector for each time slice of tokens, from
        the mean of the representation's text tokens."""
        assert self.motion_path is not None
        text = rep[:, : self.config.representation.text_tokens].mean(dim=1)
        out: torch.Tensor = self.motion_path(text).unflatten(1, (self.grid[0], -1))
        return out

    def spatial(self, rep: torch.Tensor) -> torch.Tensor:
        """(B, 1, H'*W', hidden): the representation's image grid resized to the token grid
        (bilinear), projected, for every time slice alike."""
        assert self.rep_grid is not None
        grid_rows, grid_cols = self.config.representation.image_grid
        _gt, gh, gw = self.grid
        image = rep[:, self.config.representation.text_tokens:]
        image = image.transpose(1, 2).reshape(rep.shape[0], rep.shape[2], grid_rows, grid_cols)
        image = F.interpolate(image.float(), size=(gh, gw), mode="bilinear", align_corners=False).to(rep.dtype)
        tokens: torch.Tensor = self.rep_grid(image.flatten(2).transpose(1, 2))
        return tokens[:, None]

    def forward(self, noisy: torch.Tensor, t: torch.Tensor, level: torch.Tensor, rep: torch.Tensor) -> torch.Tensor:
        """Predict the clean canvas from ``noisy`` (B, C, T, H, W) at flow time ``t`` (B,) in [0, 1].
        ``level`` (B,) is 1..5 (0: none), ``rep`` (B, R, dim)."""
        cond, context = self.conditioning(t, level, rep)
        gt, gh, gw = self.grid
        skip = self.config.decoder.param == "skip"
        if skip:
            c_in, c_skip, c_out = (w.to(noisy.dtype)[:, None, None, None, None] for w in skip_weights(t.float()))
            noisy_in = noisy * c_in
        else:
            noisy_in = noisy
        x = self.embed(self.patchify(noisy_in)) + self.position.to(noisy.dtype)
        if self.rep_grid is not None:
            x = (x.unflatten(1, (gt, gh * gw)) + self.spatial(rep).to(x.dtype)).flatten(1, 2)
        mode = self.config.decoder.motion_path
        # conditioning per token group: (B, 1, hidden) for all tokens, or (B, slices, hidden)
        groups = cond[:, None]
        if mode:
            offsets = self.slice_offsets(rep)
            if mode == "tokens":
                x = (x.unflatten(1, (gt, gh * gw)) + offsets[:, :, None].to(x.dtype)).flatten(1, 2)
            else:
                groups = groups + offsets
        modulation = self.adaln(groups).unflatten(2, (6, -1))
        out_modulation = self.out_adaln(groups).unflatten(2, (2, -1))
        if groups.shape[1] > 1:  # one modulation per time slice -> per token
            modulation = modulation.repeat_interleave(gh * gw, dim=1)
            out_modulation = out_modulation.repeat_interleave(gh * gw, dim=1)
        for block in self.blocks:
            x = block(x, modulation, context)
        shift, scale = (out_modulation + self.out_table).unbind(2)
        x = self.norm_out(x) * (1 + scale) + shift
        out = self.unpatchify(self.head(x))
        if self.refiner is not None:
            out = out + self.refine(out, noisy_in, t)
        if skip:
            out = c_skip * noisy + c_out * out
        return out

    def refine(self, coarse: torch.Tensor, noisy: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        """The conv refiner's correction, frame by frame (B, C, T, H, W). It is told the flow
        time ``t`` (B,): near noise the noisy canvas holds nothing to sharpen from, near the
        clip it holds the detail a patch-sized token loses."""
        assert self.refiner is not None
        b, c, frames, h, w = coarse.shape
        time = t.to(coarse.dtype)[:, None, None, None, None].expand(b, 1, frames, h, w)
        inputs = torch.cat([coarse, noisy.to(coarse.dtype), time], dim=1)
        out: torch.Tensor = self.refiner(inputs.transpose(1, 2).reshape(b * frames, 2 * c + 1, h, w))
        return out.reshape(b, frames, c, h, w).transpose(1, 2)

    def drop(self, rep: torch.Tensor, level: torch.Tensor, keep: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Replace the representation and level of the samples where ``keep`` is false by the
        learned null ones (classifier-free guidance)."""
        return drop_conditioning(self.null_rep, rep, level, keep)


def drop_conditioning(null_rep: torch.Tensor, rep: torch.Tensor, level: torch.Tensor, keep: torch.Tensor
                      ) -> tuple[torch.Tensor, torch.Tensor]:
    """``rep`` and ``level`` with the samples where ``keep`` is false replaced by the null
    representation and level 0 (what a decoder's ``drop`` does)."""
    rep = torch.where(keep[:, None, None], rep, null_rep.to(rep.dtype)[None])
    return rep, torch.where(keep, level, torch.zeros_like(level))


def flow_times(steps: int, shift: float = 3.0) -> list[float]:
    """Sampling times from 0 (noise) to 1 (clip); ``shift`` > 1 spends more steps near noise."""
    out = []
    for k in range(steps + 1):
        sigma = 1.0 - k / steps
        sigma = shift * sigma / (1 + (shift - 1) * sigma)
        out.append(1.0 - sigma)
    return out


def guided(model: nn.Module | Decoder, null: Decoder, z: torch.Tensor, t: torch.Tensor, level: torch.Tensor,
           rep: torch.Tensor, guidance: float) -> torch.Tensor:
    """The clean-canvas prediction, with classifier-free guidance when ``guidance`` is not 1
    (``null`` provides the learned null conditioning; ``model`` may be its compiled form)."""
    if guidance == 1.0:
        out: torch.Tensor = model(z, t, level, rep)
        return out
    null_rep, null_level = null.drop(rep, level, torch.zeros_like(level, dtype=torch.bool))
    both = model(torch.cat([z, z]), torch.cat([t, t]), torch.cat([level, null_level]), torch.cat([rep, null_rep]))
    cond, uncond = both.chunk(2)
    mixed: torch.Tensor = uncond + guidance * (cond - uncond)
    return mixed


def euler_step(z: torch.Tensor, x_pred: torch.Tensor, a: float, b: float) -> torch.Tensor:
    """The rectified flow's Euler step from ``z`` at time ``a`` to time ``b``, given the
    clean-canvas prediction ``x_pred`` (the velocity is ``(x_pred - z) / (1 - a)``)."""
    return z + (b - a) * (x_pred - z) / max(1.0 - a, 1e-3)


@torch.no_grad()
def sample(model: Decoder, rep: torch.Tensor, level: torch.Tensor, noise: torch.Tensor, steps: int,
           guidance: float = 1.0, on_step: object = None, clamp: bool = True) -> torch.Tensor:
    """Euler steps of the rectified flow from ``noise`` to a canvas (B, C, T, H, W): pixels
    clamped to [-1, 1], or with ``clamp`` false a latent (unbounded, left as it is).
    ``on_step(k, x_pred)`` is called after each step (progress, cancel)."""
    times = flow_times(steps)
    z = noise
    x_pred = noise
    for k in range(steps):
        t = torch.full((z.shape[0],), times[k], device=z.device, dtype=z.dtype)
        x_pred = guided(model, model, z, t, level, rep, guidance)
        z = euler_step(z, x_pred, times[k], times[k + 1])
        if callable(on_step):
            on_step(k, x_pred)
    return z.clamp(-1, 1) if clamp else z


def flow_loss(model: Decoder, clip: torch.Tensor, level: torch.Tensor, rep: torch.Tensor, weight: torch.Tensor,
              generator: torch.Generator | None = None, critic: CriticTerm | None = None,
              adversary: Adversary | None = None) -> torch.Tensor:
    """The x-prediction flow-matching loss (in velocity units) of a batch of canvases (clips in
    [-1, 1] or scaled latents). ``weight`` (B, 1, 1, H, W) weighs the canvas's cells (the
    character's region more). With ``critic`` (and a config balance above 0), the motion
    critic's term on the prediction is added (:mod:`.critic`); with ``adversary``, the
    adversary's (:mod:`.adversary`), which also keeps the prediction for its own update."""
    dec = model.config.decoder
    b = clip.shape[0]
    t = torch.sigmoid(torch.randn(b, device=clip.device, generator=generator) * dec.t_std + dec.t_mean)
    noise = torch.randn(clip.shape, device=clip.device, generator=generator, dtype=clip.dtype)
    tb = t[:, None, None, None, None]
    noisy = tb * clip + (1 - tb) * noise
    x_pred = model(noisy, t, level, rep)
    scale = loss_weight(dec.loss_space, tb, dec.min_noise)
    error = (x_pred.float() - clip.float()) ** 2 * scale
    loss: torch.Tensor = (error * weight).mean() / weight.mean()
    if dec.temporal_loss > 0:
        predicted, target = x_pred.float().diff(dim=2), clip.float().diff(dim=2)
        change_error = (predicted - target) ** 2 * scale
        loss = loss + dec.temporal_loss * (change_error * weight).mean() / weight.mean()
    # a preconditioned network's output moves the prediction by c_out(t): the added terms are
    # balanced against the flow loss on that output, not on the prediction
    output_scale = skip_weights(t.float())[2][:, None, None, None, None] if dec.param == "skip" else None
    if critic is not None:
        loss = critic.added_to(loss, x_pred, clip, t, output_scale)
    if adversary is not None:
        loss = adversary.added_to(loss, x_pred, output_scale)
    return loss


LOSS_SPACES = ("velocity", "x", "out")


def loss_weight(space: str, t: torch.Tensor, min_noise: float) -> torch.Tensor | float:
    """What a clean-canvas prediction's squared error is multiplied by at flow time ``t``
    (``DecoderConfig.loss_space``); the noise left, ``1 - t``, counts as at least ``min_noise``."""
    if space == "x":
        return 1.0
    left = (1 - t.float()).clamp(min=min_noise)
    if space == "velocity":
        return 1 / left ** 2
    if space == "out":
        _c_in, _c_skip, c_out = skip_weights(1 - left)
        return 1 / c_out ** 2
    raise ValueError(f"unknown decoder loss_space {space!r} ({', '.join(LOSS_SPACES)})")


def interpolate_weight(occupancy: torch.Tensor, height: int, width: int, extra: float) -> torch.Tensor:
    """(B, 196) character occupancy of a 14 x 14 grid -> (B, 1, 1, H, W) weights at the canvas's
    size (pixels, or the latent's grid)."""
    grid = occupancy.reshape(-1, 1, 14, 14).float()
    grid = F.max_pool2d(grid, 3, stride=1, padding=1)  # a margin around the path
    weight = F.interpolate(grid, size=(height, width), mode="bilinear", align_corners=False)
    return (1 + extra * weight.clamp(0, 1)).unsqueeze(2)
