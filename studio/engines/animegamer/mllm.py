"""The MLLM: Mistral (transformers) with LoRA (peft) and AnimeGamer's two resamplers.

Built empty (parameters on the meta device) and filled from our safetensors files, so
that a 7B model never gets a random initialisation first. Every parameter must come from
a file and every tensor in a file must find its parameter: a misnamed key is an error
naming it, never a silently random weight.

The turn-level logic (prompts, history, cache, state decoding) is in :mod:`.predictor`;
this module only knows tensors: embed, run a segment of the prompt under a given mask,
read hidden states out.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import torch
from torch import nn

from studio.engines.animegamer.buffers import move_buffers
from studio.engines.animegamer.sizes import MLLMSize

LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ADAPTER = "default"


class WeightsError(ValueError):
    """A checkpoint whose tensors do not fill the model exactly (names the key)."""


class Resampler(nn.Sequential):
    """Linear - GELU - Linear, as the release's ``ProjectionLayer``."""

    def __init__(self, into: int, out: int) -> None:
        super().__init__(nn.Linear(into, out), nn.GELU(), nn.Linear(out, out))


def mistral_config(size: MLLMSize) -> Any:
    from transformers import MistralConfig

    # No sliding window: prompts stay below Mistral's 4,096-token window (the predictor
    # checks), where the windowed and the plain attention are the same.
    config = MistralConfig(
        vocab_size=size.vocabulary, hidden_size=size.hidden, intermediate_size=size.intermediate,
        num_hidden_layers=size.layers, num_attention_heads=size.heads, num_key_value_heads=size.kv_heads,
        head_dim=size.head_dim, max_position_embeddings=size.max_positions, rms_norm_eps=size.rms_eps,
        rope_parameters={"rope_type": "default", "rope_theta": size.rope_theta}, sliding_window=None,
        tie_word_embeddings=False, hidden_act="silu",
        bos_token_id=1, eos_token_id=2, attention_dropout=0.0,
    )
    config._attn_implementation = "sdpa"
    return config


class AnimeGamerMLLM(nn.Module):
    """Mistral + LoRA + resamplers. Parameter names (``llm.`` + transformers/peft names,
    ``input_resampler.0.weight`` ...) are those :func:`parameter_name` maps our files to."""

    def __init__(self, size: MLLMSize) -> None:
        super().__init__()
        from peft import LoraConfig, inject_adapter_in_model
        from transformers import MistralForCausalLM

        self.size = size
        self.llm = MistralForCausalLM(mistral_config(size))
        lora = LoraConfig(r=size.lora_rank, lora_alpha=int(size.lora_alpha), lora_dropout=0.0,
                          target_modules=list(LORA_TARGETS), bias="none")
        inject_adapter_in_model(lora, self.llm, adapter_name=ADAPTER)
        self.input_resampler = Resampler(size.representation, size.hidden)
        self.output_resampler = Resampler(size.hidden, size.representation)
        self._cache_argument = _cache_argument(self.llm.model)

    @classmethod
    def empty(cls, size: MLLMSize) -> AnimeGamerMLLM:
        """Built without allocating or initialising weights (they come from the files)."""
        from accelerate import init_empty_weights

        with init_empty_weights(include_buffers=False):
            return cls(size)

    # -- weights ---------------------------------------------------------------------------
    def fill(self, tensors: Mapping[str, torch.Tensor], *, device: torch.device, dtype: torch.dtype,
             where: str) -> None:
        """Put our files' tensors in place (``where`` names the files in errors)."""
        params = dict(self.named_parameters())
        for key, tensor in tensors.items():
            name = parameter_name(key)
            if name not in params:
                raise WeightsError(f"{where}: {key!r} is not a parameter of the AnimeGamer MLLM.")
            if tuple(params[name].shape) != tuple(tensor.shape):
                raise WeightsError(f"{where}: {key!r} has shape {tuple(tensor.shape)}, the model needs "
                                   f"{tuple(params[name].shape)}.")
            _assign(self, name, tensor.to(device=device, dtype=dtype))
        move_buffers(self, device)

    def missing(self) -> list[str]:
        """Parameters no file has filled yet (still on the meta device)."""
        return [name for name, p in self.named_parameters() if p.device.type == "meta"]

    # -- running ---------------------------------------------------------------------------
    @property
    def device(self) -> torch.device:
        weight: torch.Tensor = self.llm.lm_head.weight
        return weight.device

    @property
    def dtype(self) -> torch.dtype:
        weight: torch.Tensor = self.llm.lm_head.weight
        return weight.dtype

    def embed(self, ids: list[int] | tuple[int, ...]) -> torch.Tensor:
        """[1, n, hidden] embeddings of ``ids``."""
        tokens = torch.tensor([list(ids)], dtype=torch.long, device=self.device)
        embeddings: torch.Tensor = self.llm.model.embed_tokens(tokens)
        return embeddings

    def feed_back(self, representation: torch.Tensor) -> torch.Tensor:
        """A turn's [226, rep] representation as [226, hidden] input embeddings."""
        fed: torch.Tensor = self.input_resampler(representation.to(device=self.device, dtype=self.dtype))
        return fed

    def read_out(self, hidden: torch.Tensor) -> torch.Tensor:
        """Hidden states [226, hidden] as the clip representation [226, rep]."""
        out: torch.Tensor = self.output_resampler(hidden)
        return out

    def run(self, embeddings: torch.Tensor, mask: torch.Tensor, cache: object, start: int) -> torch.Tensor:
        """Run a segment at positions ``start..`` on top of ``cache`` (which it extends); the
        final-norm hidden states [1, n, hidden]. ``mask`` is the additive [1, 1, n, start + n] mask."""
        length = embeddings.shape[1]
        positions = torch.arange(start, start + length, device=self.device).unsqueeze(0)
        out = self.llm.model(inputs_embeds=embeddings, attention_mask=mask, position_ids=positions,
                             use_cache=True, **{self._cache_argument: cache})
        hidden: torch.Tensor = out.last_hidden_state
        return hidden

    def scores(self, hidden: torch.Tensor) -> torch.Tensor:
        """Next-token scores [vocabulary] after the last position of ``hidden`` [1, n, hidden]."""
        logits: torch.Tensor = self.llm.lm_head(hidden[0, -1])
        return logits.float()

    def new_cache(self) -> object:
        from transformers import DynamicCache

        return DynamicCache(config=self.llm.config)


def parameter_name(key: str) -> str:
    """Our file key -> the parameter's name in :class:`AnimeGamerMLLM`."""
    if key.startswith(("input_resampler.", "output_resampler.")):
        return key
    for proj in LORA_TARGETS:
        marker = f".{proj}."
        if marker in key:
            head, _, tail = key.partition(marker)
            if tail == "weight":
                return f"llm.{head}{marker}base_layer.weight"
            if tail in ("lora_A.weight", "lora_B.weight"):
                return f"llm.{head}{marker}{tail[:6]}.{ADAPTER}.weight"
    return f"llm.{key}"


def _assign(root: nn.Module, name: str, tensor: torch.Tensor) -> None:
    module_name, _, attr = name.rpartition(".")
    module = root.get_submodule(module_name)
    setattr(module, attr, nn.Parameter(tensor, requires_grad=False))


def _cache_argument(model: nn.Module) -> str:
    """transformers 5 names the KV cache ``cache``; earlier versions ``past_key_values``."""
    names = inspect.signature(model.forward).parameters
    return "cache" if "cache" in names else "past_key_values"


def causal_mask(length: int, past: int, *, block: tuple[int, int] | None = None,
                device: torch.device | None = None, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """Additive [1, 1, length, past + length] mask: causal, with ``block`` (positions relative
    to the segment) attending to itself in both directions (the query slots)."""
    rows = torch.arange(length, device=device)[:, None] + past
    cols = torch.arange(past + length, device=device)[None, :]
    allowed = cols <= rows
    if block is not None:
        start, stop = block
        allowed[start:stop, past + start:past + stop] = True
    mask = torch.zeros(length, past + length, device=device, dtype=dtype)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return mask[None, None]
