"""The mini LM: a tiny Llama (transformers) that reads the branch and predicts the state
tokens and the next clip's representation.

As AnimeGamer: the value tokens are predicted one after another (causal), the
representation in one bidirectional block of query tokens at the end (every query sees
the whole branch and every other query). Earlier turns' representations enter through a
linear projection at their ``<r>`` slots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn
from transformers import LlamaConfig, LlamaModel

from studio.engines.mini.config import ModelConfig
from studio.engines.mini.data import LOCATION_NAMES, MOTION_NAMES, TIMES, characters
from studio.engines.mini.sequence import LMInput

AUX_CLASSES: tuple[int, int, int, int] = (len(MOTION_NAMES), len(LOCATION_NAMES), len(characters()), len(TIMES))
"""Sizes of the auxiliary heads: motion, location, character, time of day."""


@dataclass
class LMBatch:
    """Padded sequences (right padding) and where their parts are."""

    ids: torch.Tensor  # (B, L) long
    valid: torch.Tensor  # (B, L) bool
    rep_inputs: torch.Tensor  # (B, L, dim) float, zero outside <r> slots
    rep_mask: torch.Tensor  # (B, L) bool
    query_index: torch.Tensor  # (B, L) long, -1 outside the query block
    value_positions: torch.Tensor  # (B, 4) long
    query_positions: torch.Tensor  # (B, R) long

    def to(self, device: torch.device | str) -> LMBatch:
        return LMBatch(*(getattr(self, name).to(device, non_blocking=True) for name in self.__dataclass_fields__))

    def select(self, index: torch.Tensor) -> LMBatch:
        """Rows ``index`` of a pre-collated set, cut to their longest sequence."""
        valid = self.valid[index]
        length = int(valid.sum(dim=1).max())
        return LMBatch(self.ids[index, :length], valid[:, :length], self.rep_inputs[index, :length],
                       self.rep_mask[index, :length], self.query_index[index, :length], self.value_positions[index],
                       self.query_positions[index])


def noisy_instruction(batch: LMBatch, instr_id: int, word_ids: torch.Tensor, unk_id: int, rate: float,
                      generator: torch.Generator | None = None) -> LMBatch:
    """``batch`` with a share ``rate`` of the current instruction's tokens (between ``<instr>``
    and ``<ML>``) replaced, half by random ``word_ids``, half by ``<unk>`` (training only)."""
    if rate <= 0:
        return batch
    ids = batch.ids
    positions = torch.arange(ids.shape[1], device=ids.device)[None]
    start = (ids == instr_id).int().argmax(dim=1, keepdim=True)
    inside = (positions > start) & (positions < batch.value_positions[:, :1])
    draw = torch.rand(ids.shape, generator=generator).to(ids.device)
    words = word_ids.to(ids.device)[torch.randint(0, len(word_ids), ids.shape, generator=generator).to(ids.device)]
    replaced = torch.where(draw < rate / 2, words, torch.full_like(ids, unk_id))
    ids = torch.where(inside & (draw < rate), replaced, ids)
    return LMBatch(ids, batch.valid, batch.rep_inputs, batch.rep_mask, batch.query_index, batch.value_positions,
                   batch.query_positions)


def collate_all(inputs: Sequence[LMInput], tokens: int, dim: int, pad_id: int, device: torch.device,
                chunk: int = 8192) -> LMBatch:
    """Every example padded to the longest one, on ``device`` (collated once, then indexed
    per step with :meth:`LMBatch.select`: no per-step collation in Python)."""
    length = max(len(item.ids) for item in inputs)
    parts = []
    for start in range(0, len(inputs), chunk):
        part = collate(inputs[start:start + chunk], tokens, dim, pad_id)
        pad = length - part.ids.shape[1]
        if pad:
            part = LMBatch(F.pad(part.ids, (0, pad), value=pad_id), F.pad(part.valid, (0, pad)),
                           F.pad(part.rep_inputs, (0, 0, 0, pad)), F.pad(part.rep_mask, (0, pad)),
                           F.pad(part.query_index, (0, pad), value=-1), part.value_positions, part.query_positions)
        parts.append(part.to(device))
    return LMBatch(*(torch.cat([getattr(p, name) for p in parts]) for name in LMBatch.__dataclass_fields__))


def collate(inputs: Sequence[LMInput], tokens: int, dim: int, pad_id: int) -> LMBatch:
    """Pad ``inputs`` into one batch (on the CPU)."""
    size = len(inputs)
    length = max(len(item.ids) for item in inputs)
    ids = np.full((size, length), pad_id, dtype=np.int64)
    valid = np.zeros((size, length), dtype=bool)
    rep_inputs = np.zeros((size, length, dim), dtype=np.float32)
    rep_mask = np.zeros((size, length), dtype=bool)
    query_index = np.full((size, length), -1, dtype=np.int64)
    values = np.zeros((size, 4), dtype=np.int64)
    queries = np.zeros((size, tokens), dtype=np.int64)
    for b, item in enumerate(inputs):
        n = len(item.ids)
        ids[b, :n] = item.ids
        valid[b, :n] = True
        for start, history in item.rep_ranges:
            rep_inputs[b, start:start + tokens] = item.history[history]
            rep_mask[b, start:start + tokens] = True
        query_index[b, item.query_start:item.query_start + tokens] = np.arange(tokens)
        values[b] = item.value_positions
        queries[b] = np.arange(item.query_start, item.query_start + tokens)
    return LMBatch(torch.from_numpy(ids), torch.from_numpy(valid), torch.from_numpy(rep_inputs),
                   torch.from_numpy(rep_mask), torch.from_numpy(query_index), torch.from_numpy(values),
                   torch.from_numpy(queries))


def attention_mask(valid: torch.Tensor, query_index: torch.Tensor) -> torch.Tensor:
    """(B, 1, L, L) boolean: causal, except that the query block sees itself whole; padding
    is never attended to."""
    length = valid.shape[1]
    causal = torch.ones(length, length, dtype=torch.bool, device=valid.device).tril()
    is_query = query_index >= 0
    block = is_query[:, :, None] & is_query[:, None, :]
    allowed = (causal[None] | block) & valid[:, None, :]
    return allowed[:, None]


class MiniLM(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        lm, rep = config.lm, config.representation
        self.config = config
        llama = LlamaConfig(vocab_size=config.vocab_size, hidden_size=lm.hidden, intermediate_size=lm.intermediate,
                            num_hidden_layers=lm.layers, num_attention_heads=lm.heads, num_key_value_heads=lm.heads,
                            max_position_embeddings=lm.max_positions, rms_norm_eps=1e-5, tie_word_embeddings=False)
        llama._attn_implementation = "sdpa"
        self.backbone = LlamaModel(llama)
        self.rep_in = nn.Linear(rep.dim, lm.hidden)
        self.queries = nn.Parameter(torch.randn(rep.tokens, lm.hidden) * 0.02)
        self.rep_out = nn.Sequential(nn.Linear(lm.hidden, lm.hidden), nn.GELU(), nn.Linear(lm.hidden, rep.dim))
        self.head = nn.Linear(lm.hidden, config.vocab_size, bias=False)
        self.aux: nn.Linear | None = nn.Linear(lm.hidden, sum(AUX_CLASSES)) if lm.aux_heads else None

    def hidden(self, batch: LMBatch) -> torch.Tensor:
        embeds = self.backbone.embed_tokens(batch.ids)
        embeds = torch.where(batch.rep_mask[..., None], self.rep_in(batch.rep_inputs).to(embeds.dtype), embeds)
        is_query = (batch.query_index >= 0)[..., None]
        embeds = embeds + is_query * self.queries[batch.query_index.clamp(min=0)].to(embeds.dtype)
        positions = torch.arange(batch.ids.shape[1], device=batch.ids.device)[None].expand_as(batch.ids)
        out = self.backbone(inputs_embeds=embeds, attention_mask=attention_mask(batch.valid, batch.query_index),
                            position_ids=positions, use_cache=False)
        return out.last_hidden_state  # type: ignore[no-any-return]

    def forward(self, batch: LMBatch) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits at the four value positions (B, 4, V), representation (B, R, dim))."""
        logits, representation, _ = self.forward_all(batch)
        return logits, representation

    def forward_all(self, batch: LMBatch) -> tuple[torch.Tensor, torch.Tensor, list[torch.Tensor]]:
        """As :meth:`forward`, plus the auxiliary logits (motion, location, character, time;
        empty without ``aux_heads``) read at the ``<ML>`` marker."""
        hidden = self.hidden(batch)
        index = batch.value_positions[..., None].expand(-1, -1, hidden.shape[-1])
        at_values = torch.gather(hidden, 1, index)
        logits = self.head(at_values)
        query_index = batch.query_positions[..., None].expand(-1, -1, hidden.shape[-1])
        representation = self.rep_out(torch.gather(hidden, 1, query_index))
        aux = list(self.aux(at_values[:, 0]).split(AUX_CLASSES, dim=-1)) if self.aux is not None else []
        return logits, representation, aux
