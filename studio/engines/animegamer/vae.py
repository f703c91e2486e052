"""The CogVideoX 3D VAE, through diffusers' ``AutoencoderKLCogVideoX``.

diffusers decodes the latents two frames at a time with a causal-convolution cache, which
is what the release does by hand (frames 0-2, then 3-4). Tiling is an opt-in memory saving.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch

from studio.engines.animegamer import lean_vae
from studio.engines.animegamer.buffers import move_buffers
from studio.engines.animegamer.mllm import WeightsError
from studio.engines.animegamer.sizes import VAESize


def build_vae(size: VAESize) -> Any:
    from diffusers import AutoencoderKLCogVideoX

    levels = len(size.channels)
    return AutoencoderKLCogVideoX(  # type: ignore[no-untyped-call]
        in_channels=3, out_channels=3,
        down_block_types=("CogVideoXDownBlock3D",) * levels, up_block_types=("CogVideoXUpBlock3D",) * levels,
        block_out_channels=tuple(size.channels), latent_channels=size.latent_channels,
        layers_per_block=size.layers_per_block, norm_num_groups=size.norm_groups, norm_eps=1e-6,
        temporal_compression_ratio=size.temporal_compression, scaling_factor=size.scaling_factor,
    )


def empty_vae(size: VAESize) -> Any:
    from accelerate import init_empty_weights

    with init_empty_weights(include_buffers=False):
        return build_vae(size)


def fill_vae(vae: torch.nn.Module, tensors: Mapping[str, torch.Tensor], *, device: torch.device,
             dtype: torch.dtype, where: str) -> None:
    params = dict(vae.named_parameters())
    for key, tensor in tensors.items():
        if key not in params:
            raise WeightsError(f"{where}: {key!r} is not a parameter of the CogVideoX VAE.")
        if tuple(params[key].shape) != tuple(tensor.shape):
            raise WeightsError(f"{where}: {key!r} has shape {tuple(tensor.shape)}, the VAE needs "
                               f"{tuple(params[key].shape)}.")
        module_name, _, attr = key.rpartition(".")
        setattr(vae.get_submodule(module_name), attr,
                torch.nn.Parameter(tensor.to(device=device, dtype=dtype), requires_grad=False))
    missing = [name for name, p in vae.named_parameters() if p.device.type == "meta"]
    if missing:
        raise WeightsError(f"{where} lacks {len(missing)} VAE parameters, e.g. {missing[0]!r}.")
    move_buffers(vae, device)


def drop_encoder(vae: Any) -> None:
    """Free the encoder's weights (about 0.2 GB): the engine only decodes."""
    vae.encoder = None


def decode_frames(vae: Any, latents: torch.Tensor, *, lean: bool = True) -> np.ndarray:
    """Latents [1, T, C, H, W] as sampled -> uint8 frames [frames, height, width, 3]. ``lean``:
    through :mod:`.lean_vae` (less than half the memory) where it applies, else diffusers' decode."""
    weight = next(vae.parameters())
    z = latents.permute(0, 2, 1, 3, 4).to(device=weight.device, dtype=weight.dtype) / vae.config.scaling_factor
    decoded = lean_vae.decode(vae, z) if lean and lean_vae.supported(vae) else vae.decode(z).sample
    video = decoded.float()  # [1, 3, frames, H, W] in [-1, 1]
    del decoded
    video = ((video + 1.0) / 2.0).clamp(0.0, 1.0)
    # The release converts with astype(uint8), which truncates; so do we.
    frames = (255.0 * video[0].permute(1, 2, 3, 0)).to(torch.uint8)
    return np.ascontiguousarray(frames.cpu().numpy())
