"""HunyuanCustom's transformer, as CustomX runs it, on diffusers' HunyuanVideo blocks.

``CustomXTransformer`` subclasses diffusers' ``HunyuanVideoTransformer3DModel`` (its patch and
text embedders, token refiner, 20 double and 40 single blocks, output layer keep their
names) and adds what HunyuanCustom and CustomX put around them:

- the character's reference views: each view is one latent frame, patch-embedded with the
  video's embedder and prepended to the video tokens; their rotary positions are
  t = -1 .. -4 and the width shifted by the latent width (so they sit beside the video,
  never on it); they are dropped before the output layer;
- the scene path: the scene clip's and mask clip's latents (2 x 16 channels) go through
  ``bg_in`` (a patch embedding) and ``bg_proj`` (a Linear) and are added to the video tokens;
- the text: the LLaVA hidden states go through the token refiner, CLIP-L's pooled output
  into the modulation (no guidance embedding: real guidance);
- step reuse (DeepCache as the release runs it): a full pass keeps the input of the last
  single block; a reusing pass runs only that block on it.
"""

from __future__ import annotations

from typing import Any

import torch
from diffusers import HunyuanVideoTransformer3DModel as _HunyuanVideoTransformer
from diffusers.models.embeddings import get_1d_rotary_pos_embed
from diffusers.models.transformers.transformer_hunyuan_video import HunyuanVideoPatchEmbed
from torch import nn

from studio.engines.customx.sizes import TransformerSize

_Base: Any = _HunyuanVideoTransformer  # diffusers is untyped: its attributes are Any here


class CustomXTransformer(_Base):  # type: ignore[misc]
    """diffusers' HunyuanVideo transformer with HunyuanCustom's reference tokens and scene path."""

    def __init__(self, **config: Any) -> None:
        super().__init__(**config)
        inner = self.config.num_attention_heads * self.config.attention_head_dim
        patch = self.config.patch_size
        self.bg_in = HunyuanVideoPatchEmbed((self.config.patch_size_t, patch, patch),
                                            self.config.in_channels * 2, inner)
        self.bg_proj = nn.Linear(inner, inner)
        self._reuse: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}
        self._rope_key: tuple[Any, ...] = ()
        self._rope: tuple[torch.Tensor, torch.Tensor] | None = None

    @classmethod
    def of_size(cls, size: TransformerSize) -> CustomXTransformer:
        model: CustomXTransformer = cls(
            in_channels=size.in_channels, out_channels=size.in_channels, num_attention_heads=size.heads,
            attention_head_dim=size.head_dim, num_layers=size.double_layers, num_single_layers=size.single_layers,
            num_refiner_layers=size.refiner_layers, mlp_ratio=4.0, patch_size=size.patch, patch_size_t=1,
            qk_norm="rms_norm", guidance_embeds=False, text_embed_dim=size.text_dim,
            pooled_projection_dim=size.pooled_dim, rope_theta=size.rope_theta, rope_axes_dim=size.rope_axes)
        return model

    # -- positions -------------------------------------------------------------------------
    def positions(self, frames: int, height: int, width: int, views: int,
                  device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
        """Rotary (cos, sin) for the view tokens then the video tokens, in token order."""
        key = (frames, height, width, views, device)
        if self._rope is not None and self._rope_key == key:
            return self._rope
        axes = [torch.arange(n, dtype=torch.float32) for n in (frames, height, width)]
        t, h, w = torch.meshgrid(*axes, indexing="ij")
        video = torch.stack([t, h, w]).reshape(3, -1)
        parts = []
        for index in range(views):
            vt, vh, vw = torch.meshgrid(torch.tensor([-(index + 1.0)]), axes[1], axes[2] + width, indexing="ij")
            parts.append(torch.stack([vt, vh, vw]).reshape(3, -1))
        grid = torch.cat([*parts, video], dim=1)
        cos, sin = [], []
        for axis, dim in enumerate(self.config.rope_axes_dim):
            c, s = get_1d_rotary_pos_embed(dim, grid[axis], self.config.rope_theta, use_real=True)  # type: ignore[arg-type]
            cos.append(c)
            sin.append(s)
        self._rope = (torch.cat(cos, dim=1).to(device), torch.cat(sin, dim=1).to(device))
        self._rope_key = key
        return self._rope

    def forget(self) -> None:
        """Drop the reused step's tensors (a new clip starts)."""
        self._reuse = {}

    # -- forward ---------------------------------------------------------------------------
    def forward(
        self,
        latents: torch.Tensor,
        timestep: torch.Tensor,
        text: torch.Tensor,
        text_mask: torch.Tensor,
        pooled: torch.Tensor,
        views: torch.Tensor,
        scene: torch.Tensor | None = None,
        reuse: bool = False,
        slot: int = 0,
    ) -> torch.Tensor:
        """Velocity for ``latents`` (B x C x T x H x W).

        ``views``: B x C x V x H x W reference latents; ``scene``: B x 2C x T x H x W scene and
        mask latents (or None); ``text``: B x L x D with its 0/1 ``text_mask``; ``pooled``:
        B x P. ``reuse``: run only the last single block on the input kept by the last full
        pass (the release's DeepCache); ``slot`` names the kept input when the guidance rows
        run as separate calls.
        """
        batch, _channels, frames, height, width = latents.shape
        p = self.config.patch_size
        h, w = height // p, width // p
        dtype = self.x_embedder.proj.weight.dtype
        rope = self.positions(frames, h, w, views.shape[2], latents.device)
        temb, _ = self.time_text_embed(timestep, pooled.to(dtype), None)
        video = self.x_embedder(latents.to(dtype))
        if scene is not None:
            video = video + self.bg_proj(self.bg_in(scene.to(dtype)))
        reference = self.x_embedder(views.to(dtype))
        hidden = torch.cat([reference, video], dim=1)
        context = self.context_embedder(text.to(dtype), timestep, text_mask)
        mask = None
        if not bool(text_mask.all()):  # padding keys are masked; without padding, the fast kernels run
            keys = torch.cat([torch.ones(batch, hidden.shape[1], device=hidden.device, dtype=torch.bool),
                              text_mask.bool()], dim=1)
            mask = keys[:, None, None, :]
        last = len(self.single_transformer_blocks) - 1
        kept = self._reuse.get(slot)
        if reuse and kept is not None and kept[0].shape == hidden.shape and kept[1].shape == context.shape:
            hidden, context = kept
            hidden, context = self.single_transformer_blocks[last](hidden, context, temb, mask, rope)
        else:
            for block in self.transformer_blocks:
                hidden, context = block(hidden, context, temb, mask, rope)
            for index, block in enumerate(self.single_transformer_blocks):
                if index == last:
                    self._reuse[slot] = (hidden, context)
                hidden, context = block(hidden, context, temb, mask, rope)
        hidden = hidden[:, reference.shape[1]:]
        hidden = self.proj_out(self.norm_out(hidden, temb))
        hidden = hidden.reshape(batch, frames, h, w, -1, 1, p, p).permute(0, 4, 1, 5, 2, 6, 3, 7)
        out: torch.Tensor = hidden.flatten(6, 7).flatten(4, 5).flatten(2, 3)
        return out


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
