"""The video decoder's DiT: diffusers' CogVideoX transformer with AnimeGamer's conditioning.

AnimeGamer changes CogVideoX-2B in three places, each rebuilt here on diffusers' parts:

- The 226 condition tokens are the MLLM's representation, already 1920 wide: they enter the
  transformer where CogVideoX puts its projected T5 text (``patch_embed.text_proj`` is the
  identity). The unconditional branch of classifier-free guidance is what the release
  computes from empty inputs: ``text_proj`` (Linear-GELU-Linear from T5's 4096) of 30 zero
  vectors and ``ip_proj`` of 196 zero CLIP features, each through its LayerNorm. It does
  not depend on the prompt, so it is computed once at load; T5 and CLIP are never loaded.
- A motion-scope embedding: the motion level mapped to a flow value (1 -> 0.5, 2 -> 2.5,
  3 -> 10, 4 -> 15, 5 -> 40), embedded like a timestep and added to the time embedding.
  diffusers' CogVideoX has exactly this hook for CogVideoX 1.5's "ofs" value; we give it
  AnimeGamer's shapes (sinusoid of the hidden width, then 1920 -> 512 -> 512).
- LoRA r=64 on q, k, v and the attention output (SAT scales it by 1/64), merged into the
  weights at load (in float32, then cast).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
from torch import nn

from studio.engines.animegamer.buffers import move_buffers
from studio.engines.animegamer.mllm import WeightsError
from studio.engines.animegamer.sizes import TEXT_TOKENS, DecoderSize

FLOW_OF_LEVEL: Mapping[int, float] = {1: 0.5, 2: 2.5, 3: 10.0, 4: 15.0, 5: 40.0}
"""The release's motion level -> flow value (its fallback for other levels, 40, is never used here)."""


class Conditioning(nn.Module):
    """The modules the release uses on T5 and CLIP outputs; here only for the unconditional tokens."""

    def __init__(self, size: DecoderSize) -> None:
        super().__init__()
        h = size.hidden
        self.size = size
        self.text_proj = nn.Sequential(nn.Linear(size.t5_width, h), nn.GELU(), nn.Linear(h, h))
        self.ip_proj = nn.Sequential(nn.Linear(size.clip_width, h), nn.GELU(), nn.Linear(h, h))
        self.text_norm = nn.LayerNorm(h)
        self.ip_norm = nn.LayerNorm(h)

    def unconditional(self) -> torch.Tensor:
        """[226, hidden]: the projected, normalised zero text and zero image features."""
        weight = self.text_proj[0].weight
        assert isinstance(weight, torch.Tensor)
        text = torch.zeros(TEXT_TOKENS, self.size.t5_width, device=weight.device, dtype=weight.dtype)
        image = torch.zeros(self.size.clip_tokens, self.size.clip_width, device=weight.device, dtype=weight.dtype)
        out: torch.Tensor = torch.cat([self.text_norm(self.text_proj(text)), self.ip_norm(self.ip_proj(image))])
        return out


class AnimeGamerTransformer(nn.Module):
    """``transformer`` (diffusers) + ``conditioning``; parameter names are those of our
    decoder file (LoRA factors are merged by :meth:`fill`, so they have no parameter)."""

    def __init__(self, size: DecoderSize) -> None:
        super().__init__()
        from diffusers import CogVideoXTransformer3DModel
        from diffusers.models.embeddings import TimestepEmbedding, Timesteps

        self.size = size
        model: Any = CogVideoXTransformer3DModel(  # type: ignore[no-untyped-call]
            num_attention_heads=size.heads, attention_head_dim=size.head_dim, in_channels=size.in_channels,
            out_channels=size.out_channels, flip_sin_to_cos=True, freq_shift=0, time_embed_dim=size.time_embed,
            ofs_embed_dim=size.time_embed, text_embed_dim=size.hidden, num_layers=size.layers, dropout=0.0,
            attention_bias=True, sample_width=size.sample_width, sample_height=size.sample_height,
            sample_frames=size.sample_frames, patch_size=size.patch,
            temporal_compression_ratio=size.temporal_compression, max_text_seq_length=size.text_tokens,
            activation_fn="gelu-approximate", timestep_activation_fn="silu", norm_elementwise_affine=True,
            norm_eps=size.norm_eps, spatial_interpolation_scale=size.spatial_interpolation,
            temporal_interpolation_scale=1.0, use_rotary_positional_embeddings=False,
            use_learned_positional_embeddings=False,
        )
        model.ofs_proj = Timesteps(size.hidden, True, 0)
        model.ofs_embedding = TimestepEmbedding(size.hidden, size.time_embed, "silu")
        model.patch_embed.text_proj = nn.Identity()
        self.transformer: Any = model
        self.conditioning = Conditioning(size)

    @classmethod
    def empty(cls, size: DecoderSize) -> AnimeGamerTransformer:
        from accelerate import init_empty_weights

        with init_empty_weights(include_buffers=False):
            return cls(size)

    def fill(self, tensors: Mapping[str, torch.Tensor], *, device: torch.device, dtype: torch.dtype,
             where: str) -> None:
        """Our decoder file's tensors in place, LoRA merged (``where`` names the file in errors)."""
        params = dict(self.named_parameters())
        lora: dict[str, dict[str, torch.Tensor]] = {}
        plain: dict[str, torch.Tensor] = {}
        for key, tensor in tensors.items():
            base, _, side = key.removesuffix(".weight").rpartition(".")
            if key.endswith(".weight") and side in ("lora_A", "lora_B"):
                lora.setdefault(base, {})[side] = tensor
            else:
                plain[key] = tensor
        for key, tensor in plain.items():
            name = _parameter_name(key)
            if name not in params:
                raise WeightsError(f"{where}: {key!r} is not a parameter of the AnimeGamer decoder.")
            if tuple(params[name].shape) != tuple(tensor.shape):
                raise WeightsError(f"{where}: {key!r} has shape {tuple(tensor.shape)}, the decoder needs "
                                   f"{tuple(params[name].shape)}.")
            merged_later = key.removesuffix(".weight") in lora  # merged in float32, cast after
            _assign(self, name, tensor.to(device=device, dtype=torch.float32 if merged_later else dtype))
        scale = self.size.lora_alpha / self.size.lora_rank
        for base, factors in lora.items():
            name = _parameter_name(f"{base}.weight")
            if set(factors) != {"lora_A", "lora_B"} or name not in params:
                raise WeightsError(f"{where}: LoRA for {base!r} is incomplete or has no base layer.")
            weight = dict(self.named_parameters())[name]
            if weight.device.type == "meta":
                raise WeightsError(f"{where}: LoRA for {base!r} but no {base}.weight.")
            down, up = factors["lora_A"].float().to(device), factors["lora_B"].float().to(device)
            merged = weight.detach().float() + scale * (up @ down)
            _assign(self, name, merged.to(dtype))
        move_buffers(self, device)

    def missing(self) -> list[str]:
        return [name for name, p in self.named_parameters() if p.device.type == "meta"]

    @property
    def device(self) -> torch.device:
        weight: torch.Tensor = self.transformer.proj_out.weight
        return weight.device

    @property
    def dtype(self) -> torch.dtype:
        weight: torch.Tensor = self.transformer.proj_out.weight
        return weight.dtype

    def forward(self, latents: torch.Tensor, timestep: torch.Tensor, flow: torch.Tensor,
                condition: torch.Tensor) -> torch.Tensor:
        """The v-prediction for ``latents`` [B, T, C, H, W] at integer ``timestep`` [B], motion
        ``flow`` [B] and condition tokens [B, 226, hidden]."""
        out = self.transformer(hidden_states=latents.to(self.dtype), encoder_hidden_states=condition.to(self.dtype),
                               timestep=timestep, ofs=flow, return_dict=False)[0]
        result: torch.Tensor = out
        return result


def _parameter_name(key: str) -> str:
    return key if key.startswith("conditioning.") else f"transformer.{key}"


def _assign(root: nn.Module, name: str, tensor: torch.Tensor) -> None:
    module_name, _, attr = name.rpartition(".")
    setattr(root.get_submodule(module_name), attr, nn.Parameter(tensor, requires_grad=False))
