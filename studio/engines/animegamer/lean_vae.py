"""The CogVideoX VAE's decoder, run with a small memory peak and the same arithmetic.

diffusers' decoder keeps every layer's input alive until its block returns, clones a
"cache" of the whole input for the 1 x 1 x 1 convolutions (which never read it), keeps the
last frame batch's caches although nothing follows, and builds the spatial norm's
``norm(f) * conv_y(zq) + conv_b(zq)`` out of place from three full-size tensors. At 480 x
720 x 17 frames that peaks near 15 GiB. This module walks the same modules, with the same
weights, in the same order of operations (the frame batches, the causal caches and the
group norms over each whole batch are unchanged), but hands each activation from layer to
layer so that nobody keeps it, applies the elementwise steps in place, computes the norm's
scale and shift a few frames at a time and the upsampler's convolution frame by frame.

Elementwise steps in place give the same bits as out of place. The convolutions split
along time (the norm's pointwise ones, the upsampler's 2D ones) compute the same sums but
may be given another algorithm by cuDNN for the smaller shape: on a GPU the result can
differ from diffusers' in the last bits (the benchmark reports the relative difference);
on the CPU the tests find them equal within float32 rounding.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812 (the usual name)

CHUNK_BYTES = 256 * 1024**2
"""Frames per piece for the split steps: as many as keep a piece's output under this."""


class _Held:
    """The live activation between layers, held here so that no caller's frame keeps it."""

    def __init__(self) -> None:
        self._tensor: torch.Tensor | None = None

    def put(self, tensor: torch.Tensor) -> None:
        self._tensor = tensor

    def take(self) -> torch.Tensor:
        tensor, self._tensor = self._tensor, None
        assert tensor is not None
        return tensor


Cache = dict[nn.Module, torch.Tensor]


def supported(vae: Any) -> bool:
    """Whether :func:`decode` knows this VAE's decoder (diffusers' CogVideoX layout)."""
    decoder = getattr(vae, "decoder", None)
    return (decoder is not None and not getattr(vae, "use_tiling", False)
            and type(decoder).__name__ == "CogVideoXDecoder3D" and isinstance(decoder.conv_act, nn.SiLU))


def decode(vae: Any, z: torch.Tensor) -> torch.Tensor:
    """``vae.decode(z).sample`` for scaled latents ``z`` [B, C, T, H, W]: frames [B, 3, F, H', W']."""
    frames = z.shape[2]
    size = vae.num_latent_frames_batch_size
    batches = max(frames // size, 1)
    remaining = frames % size
    cache: Cache = {}
    out = []
    for i in range(batches):
        start = size * i + (0 if i == 0 else remaining)
        stop = size * (i + 1) + remaining
        piece = z[:, :, start:stop]
        if vae.post_quant_conv is not None:
            piece = vae.post_quant_conv(piece)
        out.append(_decode_batch(vae.decoder, piece, cache, keep=i < batches - 1))
    return torch.cat(out, dim=2)


def _decode_batch(decoder: Any, zq: torch.Tensor, cache: Cache, keep: bool) -> torch.Tensor:
    held = _Held()
    held.put(zq)
    held.put(_causal_conv(decoder.conv_in, held, cache, keep))
    for block in decoder.mid_block.resnets:
        held.put(_resnet(block, held, zq, cache, keep))
    for up in decoder.up_blocks:
        for block in up.resnets:
            held.put(_resnet(block, held, zq, cache, keep))
        for upsampler in up.upsamplers or ():
            held.put(_upsample(upsampler, held))
    x = held.take()
    h = _spatial_norm(decoder.norm_out, x, zq)
    del x
    F.silu(h, inplace=True)
    held.put(h)
    del h
    return _causal_conv(decoder.conv_out, held, cache, keep)


def _causal_conv(conv: Any, held: _Held, cache: Cache, keep: bool) -> torch.Tensor:
    """diffusers' ``CogVideoXCausalConv3d`` (constant padding): the previous batch's last
    frames (or the first frame repeated) before the input; only kernels longer than one
    frame keep a cache, and only when another batch follows."""
    x = held.take()
    k = conv.time_kernel_size
    if conv.pad_mode == "replicate":
        x = F.pad(x, conv.time_causal_padding, mode="replicate")
    elif k > 1:
        previous = cache.pop(conv, None)
        pad = [previous] if previous is not None else [x[:, :, :1]] * (k - 1)
        del previous
        if x.shape[2] < k:  # too short to split: as diffusers does it
            whole = torch.cat([*pad, x], dim=2)
            del pad, x
            if keep:
                cache[conv] = whole[:, :, -k + 1:].clone()
            single: torch.Tensor = conv.conv(whole)
            return single
        # The first k - 1 output frames read the cached frames, the others only x: two
        # convolutions instead of one over a padded copy of x (which would double the peak).
        head = torch.cat([*pad, x[:, :, :k - 1]], dim=2)
        del pad
        if keep:
            cache[conv] = x[:, :, -k + 1:].clone()
        rest = conv.conv(x)
        del x
        first = conv.conv(head)
        del head
        joined: torch.Tensor = torch.cat([first, rest], dim=2)
        return joined
    out: torch.Tensor = conv.conv(x)
    return out


def _frames_per_piece(channels: int, height: int, width: int, itemsize: int) -> int:
    return max(1, CHUNK_BYTES // max(1, channels * height * width * itemsize))


def _spatial_norm(norm: Any, f: torch.Tensor, zq: torch.Tensor) -> torch.Tensor:
    """``group_norm(f) * conv_y(zq') + conv_b(zq')`` (zq' = zq resized to f), in place on the
    normalised tensor, the pointwise convolutions a few frames at a time."""
    if f.shape[2] > 1 and f.shape[2] % 2 == 1:
        z_first = F.interpolate(zq[:, :, :1], size=(1, *f.shape[-2:]))
        z_rest = F.interpolate(zq[:, :, 1:], size=(f.shape[2] - 1, *f.shape[-2:]))
        resized = torch.cat([z_first, z_rest], dim=2)
        del z_first, z_rest
    else:
        resized = F.interpolate(zq, size=f.shape[-3:])
    out: torch.Tensor = norm.norm_layer(f)
    step = _frames_per_piece(out.shape[1], out.shape[3], out.shape[4], out.element_size())
    for start in range(0, out.shape[2], step):
        part = resized[:, :, start:start + step]
        target = out[:, :, start:start + step]
        target.mul_(norm.conv_y.conv(part))
        target.add_(norm.conv_b.conv(part))
    return out


def _resnet(block: Any, held: _Held, zq: torch.Tensor, cache: Cache, keep: bool) -> torch.Tensor:
    """diffusers' ``CogVideoXResnetBlock3D`` (decoder: no time embedding, dropout off)."""
    x = held.take()
    h = _spatial_norm(block.norm1, x, zq) if zq is not None else block.norm1(x)
    if block.in_channels != block.out_channels:
        if block.use_conv_shortcut:
            side = _Held()
            side.put(x)
            del x
            residual = _causal_conv(block.conv_shortcut, side, cache, keep)
        else:
            residual = block.conv_shortcut(x)
            del x
    else:
        residual = x
        del x
    F.silu(h, inplace=True)
    held.put(h)
    del h
    h = _causal_conv(block.conv1, held, cache, keep)
    g = _spatial_norm(block.norm2, h, zq) if zq is not None else block.norm2(h)
    del h
    F.silu(g, inplace=True)
    held.put(g)
    del g
    out = _causal_conv(block.conv2, held, cache, keep)
    out.add_(residual)
    return out


def _upsample(upsampler: Any, held: _Held) -> torch.Tensor:
    """diffusers' ``CogVideoXUpsample3D``: nearest 2x (time too when it compresses time, the
    first frame kept single), then the 2D convolution, one distinct output frame at a time.
    Frames that repeat a source frame are copies of its result."""
    x = held.take()
    b, t = x.shape[0], x.shape[2]
    if upsampler.compress_time and t > 1:
        sources = [0] + [1 + i // 2 for i in range(2 * (t - 1))] if t % 2 == 1 else [i // 2 for i in range(2 * t)]
    else:
        sources = list(range(t))
    out: torch.Tensor | None = None
    done: dict[int, int] = {}
    for index, source in enumerate(sources):
        if out is not None and source in done:
            out[:, :, index] = out[:, :, done[source]]
            continue
        frame = upsampler.conv(F.interpolate(x[:, :, source], scale_factor=2.0))
        if out is None:
            out = frame.new_empty(b, frame.shape[1], len(sources), *frame.shape[-2:])
        out[:, :, index] = frame
        done[source] = index
    assert out is not None
    return out
