"""Tiny random checkpoints in the release's file formats, with its module names.

The names come from the reference implementation's classes as they are built (peft's
naming for the MLLM, SwissArmyTransformer's for the DiT and the VAE): written out here by
hand from those classes, not from our converter's rules, so that a rule that drifts from
the release fails the conversion tests. Each writer returns the path it wrote.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import torch

from studio.engines.animegamer.released import released_vae_keys
from studio.engines.animegamer.sizes import ModelSize
from studio.engines.catalog import animegamer_layout as layout

ANIMEGAMER_FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "animegamer"
"""The shared fixtures (the same folder as ``tests/conftest.py``'s)."""

PROJS = (("self_attn", "q_proj"), ("self_attn", "k_proj"), ("self_attn", "v_proj"), ("self_attn", "o_proj"),
         ("mlp", "gate_proj"), ("mlp", "up_proj"), ("mlp", "down_proj"))


class Random:
    """Seeded tensors: norms near 1, everything else small. ``meta``: shapes only (no memory),
    for full-size key lists."""

    def __init__(self, seed: int, dtype: torch.dtype = torch.float32, meta: bool = False) -> None:
        self.generator = torch.Generator().manual_seed(seed)
        self.dtype = dtype
        self.meta = meta

    def ones(self, *shape: int) -> torch.Tensor:
        if self.meta:
            return torch.empty(*shape, dtype=self.dtype, device="meta")
        return torch.ones(*shape, dtype=self.dtype)

    def __call__(self, name: str, *shape: int) -> torch.Tensor:
        if self.meta:
            return torch.empty(*shape, dtype=self.dtype, device="meta")
        values = torch.randn(*shape, generator=self.generator)
        norm = any(part in name for part in ("norm", "layernorm")) and name.endswith("weight")
        scale = 0.1 if norm or len(shape) == 1 else 1.0 / max(1.0, float(shape[-1] if len(shape) == 2 else
                                                                         np.prod(shape[1:]))) ** 0.5
        out = (1.0 + values * 0.1) if norm else values * scale
        return out.to(self.dtype)


def _linear_shape(size: ModelSize, proj: str) -> tuple[int, int]:
    m = size.mllm
    kv = m.kv_heads * (m.hidden // m.heads)
    return {"q_proj": (m.hidden, m.hidden), "k_proj": (kv, m.hidden), "v_proj": (kv, m.hidden),
            "o_proj": (m.hidden, m.hidden), "gate_proj": (m.intermediate, m.hidden),
            "up_proj": (m.intermediate, m.hidden), "down_proj": (m.hidden, m.intermediate)}[proj]


# -- MLLM -----------------------------------------------------------------------------------
def mllm_state(size: ModelSize, *, seed: int = 1, trained_only: bool = False, plain_base: bool = False,
               dtype: torch.dtype = torch.float32, meta: bool = False) -> dict[str, torch.Tensor]:
    """The agent model's ``state_dict()``: ``llm`` is a peft model of Mistral with LoRA and
    ``modules_to_save`` norms; ``input_resampler`` / ``output_resampler`` are ProjectionLayers."""
    rnd, m = Random(seed, dtype, meta), size.mllm
    prefix = "llm.base_model.model."
    out: dict[str, torch.Tensor] = {f"{prefix}model.embed_tokens.weight": rnd("embed", m.vocabulary, m.hidden)}

    def norm(name: str) -> None:
        if not trained_only:
            out[f"{prefix}{name}.original_module.weight"] = rnd.ones(m.hidden)
        out[f"{prefix}{name}.modules_to_save.default.weight"] = rnd(f"{name}.weight", m.hidden)

    for i in range(m.layers):
        for group, proj in PROJS:
            rows, cols = _linear_shape(size, proj)
            base = f"{prefix}model.layers.{i}.{group}.{proj}"
            if not trained_only:
                out[f"{base}.{'weight' if plain_base else 'base_layer.weight'}"] = rnd(base, rows, cols)
            out[f"{base}.lora_A.default.weight"] = rnd(f"{base}.lora_A", m.lora_rank, cols)
            out[f"{base}.lora_B.default.weight"] = rnd(f"{base}.lora_B", rows, m.lora_rank)
        norm(f"model.layers.{i}.input_layernorm")
        norm(f"model.layers.{i}.post_attention_layernorm")
    norm("model.norm")
    out[f"{prefix}lm_head.weight"] = rnd("lm_head", m.vocabulary, m.hidden)
    for side, into, width in (("input", m.representation, m.hidden), ("output", m.hidden, m.representation)):
        out[f"{side}_resampler.proj.0.weight"] = rnd(side, width, into)
        out[f"{side}_resampler.proj.0.bias"] = rnd(side, width)
        out[f"{side}_resampler.proj.2.weight"] = rnd(side, width, width)
        out[f"{side}_resampler.proj.2.bias"] = rnd(side, width)
    return out


def base_state(size: ModelSize, mllm: dict[str, torch.Tensor], *, seed: int = 2) -> dict[str, torch.Tensor]:
    """Mistral-7B-Instruct-v0.1's own ``model.safetensors`` (32,000 tokens): its frozen linears
    equal the ones the MLLM was trained on (taken from a full ``mllm`` state)."""
    rnd, m = Random(seed), size.mllm
    out = {"model.embed_tokens.weight": rnd("embed", m.base_vocabulary, m.hidden),
           "lm_head.weight": rnd("lm_head", m.base_vocabulary, m.hidden),
           "model.norm.weight": torch.ones(m.hidden)}
    for i in range(m.layers):
        for group, proj in PROJS:
            key = f"model.layers.{i}.{group}.{proj}"
            out[f"{key}.weight"] = mllm[f"llm.base_model.model.{key}.base_layer.weight"].clone()
        out[f"model.layers.{i}.input_layernorm.weight"] = torch.ones(m.hidden)
        out[f"model.layers.{i}.post_attention_layernorm.weight"] = torch.ones(m.hidden)
    return out


# -- decoder (SAT engine in a deepspeed file) ---------------------------------------------------
def dit_state(size: ModelSize, *, seed: int = 3, dtype: torch.dtype = torch.float32,
              meta: bool = False) -> dict[str, torch.Tensor]:
    """``model.diffusion_model.`` of the SAT engine: the DiffusionTransformer with its mixins."""
    rnd, t = Random(seed, dtype, meta), size.decoder
    h, te, r = t.hidden, t.time_embed, t.lora_rank
    p = "model.diffusion_model."
    out: dict[str, torch.Tensor] = {}

    def linear(name: str, rows: int, cols: int) -> None:
        out[f"{p}{name}.weight"], out[f"{p}{name}.bias"] = rnd(name, rows, cols), rnd(name, rows)

    def norm(name: str, width: int) -> None:
        out[f"{p}{name}.weight"], out[f"{p}{name}.bias"] = rnd(f"{name}.norm.weight", width), rnd(name, width)

    for i in range(t.layers):
        layer = f"transformer.layers.{i}"
        norm(f"{layer}.input_layernorm", h)
        qkv = f"{p}{layer}.attention.query_key_value"
        out[f"{qkv}.original.weight"], out[f"{qkv}.original.bias"] = rnd(qkv, 3 * h, h), rnd(qkv, 3 * h)
        for j in range(3):
            out[f"{qkv}.matrix_A.{j}"] = rnd(f"{qkv}.A", r, h)
            out[f"{qkv}.matrix_B.{j}"] = rnd(f"{qkv}.B", h, r)
        dense = f"{p}{layer}.attention.dense"
        out[f"{dense}.original.weight"], out[f"{dense}.original.bias"] = rnd(dense, h, h), rnd(dense, h)
        out[f"{dense}.matrix_A.0"], out[f"{dense}.matrix_B.0"] = rnd(dense, r, h), rnd(dense, h, r)
        norm(f"{layer}.post_attention_layernorm", h)
        linear(f"{layer}.mlp.dense_h_to_4h", 4 * h, h)
        linear(f"{layer}.mlp.dense_4h_to_h", h, 4 * h)
    norm("transformer.final_layernorm", h)
    linear("time_embed.0", te, h)
    linear("time_embed.2", te, te)
    linear("flow_embed.0", te, h)
    linear("flow_embed.2", te, te)
    frames = (t.sample_frames - 1) // t.temporal_compression + 1
    patches = frames * (t.sample_height // t.patch) * (t.sample_width // t.patch)
    out[f"{p}mixins.pos_embed.pos_embedding"] = rnd.ones(1, t.text_tokens + patches, h) * 0
    out[f"{p}mixins.patch_embed.proj.weight"] = rnd("patch", h, t.in_channels, t.patch, t.patch)
    out[f"{p}mixins.patch_embed.proj.bias"] = rnd("patch", h)
    linear("mixins.patch_embed.text_proj.0", h, t.t5_width)
    linear("mixins.patch_embed.text_proj.2", h, h)
    linear("mixins.patch_embed.ip_proj.0", h, t.clip_width)
    linear("mixins.patch_embed.ip_proj.2", h, h)
    for which in ("output", "ip", "txt"):
        norm(f"mixins.patch_embed.{which}_mix_layer_norm", h)
    for i in range(t.layers):
        linear(f"mixins.adaln_layer.adaLN_modulations.{i}.1", 12 * h, te)
    for which in ("query", "key"):
        for i in range(t.layers):
            norm(f"mixins.adaln_layer.{which}_layernorm_list.{i}", t.head_dim)
    norm("mixins.final_layer.norm_final", h)
    linear("mixins.final_layer.linear", t.patch**2 * t.out_channels, h)
    linear("mixins.final_layer.adaLN_modulation.1", 2 * h, te)
    return out


def t5_and_clip_state(size: ModelSize, *, seed: int = 4, meta: bool = False) -> dict[str, torch.Tensor]:
    """A few keys of the T5 encoder and of OpenCLIP's visual tower (skipped by the converter)."""
    rnd, w = Random(seed, meta=meta), size.decoder.t5_width
    t5 = "conditioner.embedders.0.transformer."
    clip = "clip_img_encoder.model.visual."
    return {f"{t5}shared.weight": rnd("t5", 32, w), f"{t5}encoder.embed_tokens.weight": rnd("t5", 32, w),
            f"{t5}encoder.block.0.layer.0.SelfAttention.q.weight": rnd("t5", w, w),
            f"{t5}encoder.final_layer_norm.weight": rnd.ones(w),
            f"{clip}conv1.weight": rnd("clip", 8, 3, 2, 2), f"{clip}class_embedding": rnd("clip", 8),
            f"{clip}transformer.resblocks.0.attn.in_proj_weight": rnd("clip", 24, 8)}


def vae_state(size: ModelSize, *, seed: int = 5, dtype: torch.dtype = torch.float32,
              meta: bool = False) -> dict[str, torch.Tensor]:
    """The SAT 3D VAE's state dict (encoder and decoder)."""
    rnd = Random(seed, dtype, meta)
    return {key: rnd(key, *_vae_shape(key, size)) for key in released_vae_keys(size)}


def _vae_shape(key: str, size: ModelSize) -> tuple[int, ...]:
    from studio.engines.animegamer.released import Placement, place_vae

    rule = place_vae(key, size)
    assert isinstance(rule, Placement), key
    return rule.shape


def deepspeed_file(module: dict[str, torch.Tensor], *, step: int = 1000) -> dict[str, object]:
    """What SAT's ``save_checkpoint`` hands to deepspeed, with the RNG states it saves."""
    rng = np.random.RandomState(step)
    return {
        "module": module, "buffer_names": [], "optimizer": None, "param_shapes": None,
        "lr_scheduler": None, "global_steps": step, "global_samples": step * 8, "dp_world_size": 1,
        "mp_world_size": 1, "ds_version": "0.14.4", "iteration": step,
        "client_lr_scheduler": {"num_iters": step}, "random_rng_state": random.Random(step).getstate(),
        "np_rng_state": rng.get_state(), "torch_rng_state": torch.get_rng_state(),
    }


# -- a whole release folder ----------------------------------------------------------------------
def write_release(source: Path, size: ModelSize, *, characters: tuple[str, ...] = ("qiqi",),
                  trained_only: bool = False, plain_base: bool = False, with_vae_file: bool = True,
                  tokenizer: Path | None = None) -> Path:
    """A release ``checkpoints/`` folder at ``size`` (plus the tokenizer, as the code ships it)."""
    for index, character in enumerate(characters):
        name = layout.DISPLAY[character]
        full = mllm_state(size, seed=10 + index)
        mllm = mllm_state(size, seed=10 + index, trained_only=trained_only, plain_base=plain_base)
        path = source / layout.RELEASE_MLLM.format(name=name)
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(mllm, path)
        if trained_only:
            write_base(source, size, full)
        folder = source / layout.RELEASE_DECODER_DIR.format(name=name)
        (folder / "1000").mkdir(parents=True, exist_ok=True)
        (folder / "latest").write_text("1000\n")
        module = {**dit_state(size, seed=20 + index), **t5_and_clip_state(size),
                  **{f"first_stage_model.{k}": v for k, v in vae_state(size).items()}}
        torch.save(deepspeed_file(module), folder / "1000" / layout.DEEPSPEED_FILE)
    if with_vae_file:
        vae = source / layout.RELEASE_VAE
        vae.parent.mkdir(parents=True, exist_ok=True)
        torch.save({"state_dict": {**vae_state(size), "loss.logvar": torch.zeros(()),
                                   "loss.discriminator.main.0.weight": torch.zeros(4, 3, 3, 3)}}, vae)
    write_tokenizer(source / "animegamer_tokenizer", tokenizer)
    return source


def write_base(source: Path, size: ModelSize, full_mllm: dict[str, torch.Tensor]) -> Path:
    from safetensors.torch import save_file

    folder = source / layout.RELEASE_BASE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps({"architectures": ["MistralForCausalLM"]}))
    save_file(base_state(size, full_mllm), str(folder / "model.safetensors"))
    return folder


def write_tokenizer(folder: Path, source: Path | None = None) -> Path:
    """AnimeGamer's tokenizer from the shared fixtures (tests that need it skip when it's absent)."""
    found = source or ANIMEGAMER_FIXTURES / "tokenizer"
    if not (found / "tokenizer.model").is_file():
        import pytest

        pytest.skip(f"AnimeGamer's tokenizer is not at {found}")
    shutil.copytree(found, folder, dirs_exist_ok=True)
    return folder


def manifest(state: dict[str, torch.Tensor]) -> dict[str, list[list[object]]]:
    """A plan manifest: ``[name, shape, dtype]`` in the file's order."""
    return {"keys": [[k, list(v.shape), str(v.dtype).removeprefix("torch.")] for k, v in state.items()]}


