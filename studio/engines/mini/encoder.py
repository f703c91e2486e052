"""The clip encoder: a clip's action-aware representation, as AnimeGamer's.

Text tokens from the instruction's action text (a small transformer pooled by learned
queries) and image tokens from the clip's first frame (a strided conv net pooled onto a
grid), projected to the representation width and RMS-normalised per token so that the LM
regresses targets of one scale.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn

from studio.engines.mini.config import ModelConfig


class ClipEncoder(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        enc, rep = config.encoder, config.representation
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, enc.hidden)
        self.position = nn.Parameter(torch.zeros(enc.max_text, enc.hidden))
        layer = nn.TransformerEncoderLayer(enc.hidden, enc.heads, 4 * enc.hidden, dropout=0.0, batch_first=True,
                                           norm_first=True, activation="gelu")
        self.text = nn.TransformerEncoder(layer, enc.text_layers, enable_nested_tensor=False)
        self.text_queries = nn.Parameter(torch.randn(rep.text_tokens, enc.hidden) * 0.02)
        self.pool = nn.MultiheadAttention(enc.hidden, enc.heads, batch_first=True)
        convs: list[nn.Module] = []
        previous = 3
        for index, channels in enumerate(enc.channels):
            kernel, stride, padding = (4, 4, 0) if index == 0 else (3, 2, 1)
            convs += [nn.Conv2d(previous, channels, kernel, stride, padding), nn.GELU()]
            previous = channels
        convs += [nn.AdaptiveAvgPool2d(rep.image_grid), nn.Conv2d(previous, enc.hidden, 1)]
        self.image = nn.Sequential(*convs)
        self.image_position = nn.Parameter(torch.zeros(rep.image_grid[0] * rep.image_grid[1], enc.hidden))
        self.out = nn.Linear(enc.hidden, rep.dim)

    def forward(self, text_ids: torch.Tensor, text_valid: torch.Tensor, first_frame: torch.Tensor) -> torch.Tensor:
        """``text_ids`` (B, L) with ``text_valid`` (B, L) true on real tokens; ``first_frame``
        (B, 3, H, W) in [-1, 1]. Returns (B, tokens, dim)."""
        length = text_ids.shape[1]
        hidden = self.embed(text_ids) + self.position[:length]
        hidden = self.text(hidden, src_key_padding_mask=~text_valid)
        queries = self.text_queries.unsqueeze(0).expand(text_ids.shape[0], -1, -1)
        text, _ = self.pool(queries, hidden, hidden, key_padding_mask=~text_valid, need_weights=False)
        image = self.image(first_frame).flatten(2).transpose(1, 2) + self.image_position
        tokens = self.out(torch.cat([text, image], dim=1))
        return F.rms_norm(tokens, (tokens.shape[-1],))
