"""Where each key of the released checkpoints goes in our layout (names and shapes only).

The released files are state dicts of the reference implementation's classes:

- ``MLLM-<Char>/pytorch_model.bin``: the agent model, keys ``llm.base_model.model.<Mistral>``
  (peft naming: ``.base_layer.weight`` or plain ``.weight`` for the frozen linears,
  ``.lora_A.default.weight`` / ``.lora_B.default.weight``, trained norms under
  ``.modules_to_save.default.``), ``input_resampler.proj.{0,2}.`` and ``output_resampler.``.
  It may hold every parameter or only the trained ones (then the frozen linears come from
  ``Mistral-7B-Instruct-v0.1/``).
- ``VDM_Decoder-<Char>/<step>/mp_rank_00_model_states.pt``: SwissArmyTransformer's engine in
  a deepspeed dict; its ``module`` holds the DiT (``model.diffusion_model.``, SAT LoRA as
  ``.original.weight`` / ``.matrix_A.i`` / ``.matrix_B.i``), the T5 encoder
  (``conditioner.``), the CLIP image tower (``clip_img_encoder.``) and the VAE
  (``first_stage_model.``).
- ``vae/3d-vae.pt``: ``{"state_dict": ...}`` of the SAT 3D VAE.

:func:`place` maps a released key, for a given :class:`~.sizes.ModelSize`, to its place in
our files (diffusers' and transformers' names) with the shape it must have, or says why
it is skipped, or that it cannot be placed. The converter and ``kamishibai checkpoints
plan`` share these rules. No torch here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from studio.engines.animegamer.sizes import ModelSize


class Part(StrEnum):
    """A released file (the ``--part`` of ``kamishibai checkpoints plan``)."""

    MLLM = "mllm"
    DECODER = "decoder"
    VAE = "vae"
    BASE = "base"
    """The base model's own files (Mistral-7B-Instruct-v0.1/), read when the MLLM file lacks them."""


class Target(StrEnum):
    """Our files: the shared base LLM and VAE, and each character's two models."""

    BASE = "base"
    MLLM = "mllm"
    DECODER = "decoder"
    VAE = "vae"


class Transform(StrEnum):
    COPY = "copy"
    SPLIT3 = "split in 3 along rows: q, k, v"
    ADALN = "12 row chunks: 0-2 and 6-8 to norm1, 3-5 and 9-11 to norm2"


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a released key goes: its target file and key(s), how, and the shape it must have."""

    target: Target
    keys: tuple[str, ...]
    shape: tuple[int, ...]
    transform: Transform = Transform.COPY

    def describe(self) -> str:
        how = "" if self.transform is Transform.COPY else f" ({self.transform.value})"
        return f"{self.target.value}: {', '.join(self.keys)}{how}"


@dataclass(frozen=True, slots=True)
class Skip:
    """A key left out by design (the reason is printed by the plan)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Unplaced:
    reason: str


Rule = Placement | Skip | Unplaced


def _matrix_or_vector(kind: str, rows: int, cols: int) -> tuple[int, ...]:
    return (rows, cols) if kind == "weight" else (rows,)


# -- the MLLM -----------------------------------------------------------------------------
MLLM_PREFIX = "llm.base_model.model."
_GROUP = {"q_proj": "self_attn", "k_proj": "self_attn", "v_proj": "self_attn", "o_proj": "self_attn",
          "gate_proj": "mlp", "up_proj": "mlp", "down_proj": "mlp"}
_MLLM_LINEAR = re.compile(r"model\.layers\.(\d+)\.(self_attn|mlp)\.(\w+_proj)\.(base_layer\.weight|weight|"
                          r"lora_A(?:\.default)?\.weight|lora_B(?:\.default)?\.weight)")
_MLLM_NORM = re.compile(r"model\.layers\.(\d+)\.(input_layernorm|post_attention_layernorm)\.(.+)")
_RESAMPLER = re.compile(r"(input|output)_resampler\.proj\.([02])\.(weight|bias)")
_UNTRAINED_COPY = "peft's untrained copy of a module it trains (the trained one is kept)"


def mistral_linear_shape(size: ModelSize, proj: str) -> tuple[int, int]:
    """(out, in) of one of Mistral's linears."""
    m = size.mllm
    kv = m.kv_heads * m.head_dim
    return {"q_proj": (m.hidden, m.hidden), "k_proj": (kv, m.hidden), "v_proj": (kv, m.hidden),
            "o_proj": (m.hidden, m.hidden), "gate_proj": (m.intermediate, m.hidden),
            "up_proj": (m.intermediate, m.hidden), "down_proj": (m.hidden, m.intermediate)}[proj]


def place_mllm(key: str, size: ModelSize) -> Rule:
    """A key of ``MLLM-<Char>/pytorch_model.bin``."""
    resampler = _RESAMPLER.fullmatch(key)
    if resampler:
        side, index, kind = resampler.groups()
        rep, hid = size.mllm.representation, size.mllm.hidden
        into, out = (rep, hid) if side == "input" else (hid, rep)
        return Placement(Target.MLLM, (f"{side}_resampler.{index}.{kind}",),
                         _matrix_or_vector(kind, out, into if index == "0" else out))
    if not key.startswith(MLLM_PREFIX):
        return Unplaced(f"not under {MLLM_PREFIX!r}, input_resampler. or output_resampler.")
    return _place_mistral(key[len(MLLM_PREFIX):], size, trained_file=True)


def place_base(key: str, size: ModelSize) -> Rule:
    """A key of the base model's own files (``Mistral-7B-Instruct-v0.1/``)."""
    return _place_mistral(key, size, trained_file=False)


def _place_mistral(rest: str, size: ModelSize, *, trained_file: bool) -> Rule:
    m = size.mllm
    if rest in ("model.embed_tokens.weight", "lm_head.weight"):
        if not trained_file:
            return Skip("the 32,000-token original; the MLLM file holds the grown, trained one")
        return Placement(Target.MLLM, (rest,), (m.vocabulary, m.hidden))
    if rest.endswith("rotary_emb.inv_freq"):
        return Skip("rotary frequencies, recomputed from the configuration")
    if rest.startswith("model.norm."):
        return _place_norm("model.norm.weight", rest[len("model.norm."):], size, trained_file)
    norm = _MLLM_NORM.fullmatch(rest)
    if norm:
        layer, which, tail = norm.groups()
        return _place_norm(f"model.layers.{layer}.{which}.weight", tail, size, trained_file)
    linear = _MLLM_LINEAR.fullmatch(rest)
    if not linear:
        return Unplaced("not a parameter of Mistral with LoRA")
    layer, group, proj, tail = linear.groups()
    if _GROUP.get(proj) != group:
        return Unplaced(f"Mistral has no {group}.{proj}")
    if int(layer) >= m.layers:
        return Unplaced(f"layer {layer} of a model with {m.layers} layers")
    base = f"model.layers.{layer}.{group}.{proj}"
    out, into = mistral_linear_shape(size, proj)
    if tail in ("base_layer.weight", "weight"):
        return Placement(Target.BASE, (f"{base}.weight",), (out, into))
    if not trained_file:
        return Unplaced("LoRA weights in the base model's files")
    if tail.startswith("lora_A"):
        return Placement(Target.MLLM, (f"{base}.lora_A.weight",), (m.lora_rank, into))
    return Placement(Target.MLLM, (f"{base}.lora_B.weight",), (out, m.lora_rank))


def _place_norm(ours: str, tail: str, size: ModelSize, trained_file: bool) -> Rule:
    if tail == "original_module.weight":
        return Skip(_UNTRAINED_COPY)
    if tail not in ("modules_to_save.default.weight", "weight"):
        return Unplaced("not a norm weight")
    if not trained_file:
        return Skip("the original norm; AnimeGamer trains the norms (kept from the MLLM file)")
    return Placement(Target.MLLM, (ours,), (size.mllm.hidden,))


# -- the decoder (SAT DiT) ----------------------------------------------------------------
DIT_PREFIX = "model.diffusion_model."
VAE_IN_DECODER = "first_stage_model."
_EMBED = {"time_embed": "time_embedding", "flow_embed": "ofs_embedding"}


def place_decoder(key: str, size: ModelSize) -> Rule:
    """A key of the deepspeed file's ``module`` (a leading ``module.`` is ignored)."""
    key = key.removeprefix("module.")
    if key.startswith("conditioner."):
        return Skip("T5-XXL text encoder: the MLLM's representation replaces its output")
    if key.startswith("clip_img_encoder."):
        return Skip("OpenCLIP image encoder: only needed to encode real clips")
    if key.startswith(VAE_IN_DECODER):
        return place_vae(key[len(VAE_IN_DECODER):], size)
    if not key.startswith(DIT_PREFIX):
        return Unplaced(f"not under {DIT_PREFIX!r}, conditioner., clip_img_encoder. or first_stage_model.")
    return _place_dit(key[len(DIT_PREFIX):], size)


def _place_dit(rest: str, size: ModelSize) -> Rule:
    d, t = Target.DECODER, size.decoder
    h = t.hidden
    embed = re.fullmatch(r"(time_embed|flow_embed)\.([02])\.(weight|bias)", rest)
    if embed:
        name, index, kind = embed.groups()
        linear = "linear_1" if index == "0" else "linear_2"
        return Placement(d, (f"{_EMBED[name]}.{linear}.{kind}",),
                         _matrix_or_vector(kind, t.time_embed, h if index == "0" else t.time_embed))
    patch = re.fullmatch(r"mixins\.patch_embed\.proj\.(weight|bias)", rest)
    if patch:
        kind = patch.group(1)
        return Placement(d, (f"patch_embed.proj.{kind}",),
                         (h, t.in_channels, t.patch, t.patch) if kind == "weight" else (h,))
    proj = re.fullmatch(r"mixins\.patch_embed\.(text_proj|ip_proj)\.([02])\.(weight|bias)", rest)
    if proj:
        name, index, kind = proj.groups()
        width = t.t5_width if name == "text_proj" else t.clip_width
        return Placement(d, (f"conditioning.{name}.{index}.{kind}",),
                         _matrix_or_vector(kind, h, width if index == "0" else h))
    norm = re.fullmatch(r"mixins\.patch_embed\.(txt|ip|output)_mix_layer_norm\.(weight|bias)", rest)
    if norm:
        which, kind = norm.groups()
        if which == "output":
            return Skip("output_mix_layer_norm: unused with 768-wide CLIP features (the released configuration)")
        return Placement(d, (f"conditioning.{'text' if which == 'txt' else 'ip'}_norm.{kind}",), (h,))
    if rest == "mixins.pos_embed.pos_embedding":
        return Skip("fixed 3D sin-cos positions, recomputed for each clip size")
    adaln = re.fullmatch(r"mixins\.adaln_layer\.adaLN_modulations\.(\d+)\.1\.(weight|bias)", rest)
    if adaln:
        layer, kind = adaln.groups()
        return _in_range(int(layer), t.layers) or Placement(
            d, (f"transformer_blocks.{layer}.norm1.linear.{kind}", f"transformer_blocks.{layer}.norm2.linear.{kind}"),
            _matrix_or_vector(kind, 12 * h, t.time_embed), Transform.ADALN)
    qk = re.fullmatch(r"mixins\.adaln_layer\.(query|key)_layernorm_list\.(\d+)\.(weight|bias)", rest)
    if qk:
        which, layer, kind = qk.groups()
        return _in_range(int(layer), t.layers) or Placement(
            d, (f"transformer_blocks.{layer}.attn1.norm_{which[0]}.{kind}",), (t.head_dim,))
    final = re.fullmatch(r"mixins\.final_layer\.(norm_final|linear|adaLN_modulation\.1)\.(weight|bias)", rest)
    if final:
        part, kind = final.groups()
        if part == "norm_final":
            return Placement(d, (f"norm_out.norm.{kind}",), (h,))
        if part == "linear":
            return Placement(d, (f"proj_out.{kind}",), _matrix_or_vector(kind, t.patch**2 * t.out_channels, h))
        return Placement(d, (f"norm_out.linear.{kind}",), _matrix_or_vector(kind, 2 * h, t.time_embed))
    final_norm = re.fullmatch(r"transformer\.final_layernorm\.(weight|bias)", rest)
    if final_norm:
        return Placement(d, (f"norm_final.{final_norm.group(1)}",), (h,))
    layer_match = re.fullmatch(r"transformer\.layers\.(\d+)\.(.+)", rest)
    if layer_match:
        layer = int(layer_match.group(1))
        return _in_range(layer, t.layers) or _place_dit_layer(layer, layer_match.group(2), size)
    return Unplaced("not a module of the released DiT (its IP cross-attention and mix_proj are off)")


def _in_range(layer: int, layers: int) -> Unplaced | None:
    return Unplaced(f"layer {layer} of a model with {layers} layers") if layer >= layers else None


def _place_dit_layer(layer: int, rest: str, size: ModelSize) -> Rule:
    d, t = Target.DECODER, size.decoder
    h, r = t.hidden, t.lora_rank
    block = f"transformer_blocks.{layer}"
    norm = re.fullmatch(r"(input_layernorm|post_attention_layernorm)\.(weight|bias)", rest)
    if norm:
        which, kind = norm.groups()
        return Placement(d, (f"{block}.{'norm1' if which == 'input_layernorm' else 'norm2'}.norm.{kind}",), (h,))
    qkv = re.fullmatch(r"attention\.query_key_value\.(?:original\.)?(weight|bias)", rest)
    if qkv:
        kind = qkv.group(1)
        return Placement(d, tuple(f"{block}.attn1.to_{x}.{kind}" for x in "qkv"), _matrix_or_vector(kind, 3 * h, h),
                         Transform.SPLIT3)
    qkv_lora = re.fullmatch(r"attention\.query_key_value\.matrix_([AB])\.([012])", rest)
    if qkv_lora:
        which, index = qkv_lora.groups()
        return Placement(d, (f"{block}.attn1.to_{'qkv'[int(index)]}.lora_{which}.weight",),
                         (r, h) if which == "A" else (h, r))
    dense = re.fullmatch(r"attention\.dense\.(?:original\.)?(weight|bias)", rest)
    if dense:
        kind = dense.group(1)
        return Placement(d, (f"{block}.attn1.to_out.0.{kind}",), _matrix_or_vector(kind, h, h))
    dense_lora = re.fullmatch(r"attention\.dense\.matrix_([AB])\.0", rest)
    if dense_lora:
        which = dense_lora.group(1)
        return Placement(d, (f"{block}.attn1.to_out.0.lora_{which}.weight",), (r, h) if which == "A" else (h, r))
    mlp = re.fullmatch(r"mlp\.(dense_h_to_4h|dense_4h_to_h)\.(weight|bias)", rest)
    if mlp:
        which, kind = mlp.groups()
        if which == "dense_h_to_4h":
            return Placement(d, (f"{block}.ff.net.0.proj.{kind}",), _matrix_or_vector(kind, 4 * h, h))
        return Placement(d, (f"{block}.ff.net.2.{kind}",), _matrix_or_vector(kind, h, 4 * h))
    return Unplaced("not a parameter of a released DiT layer")


# -- the VAE (SAT 3D VAE -> diffusers AutoencoderKLCogVideoX) -------------------------------
_KERNEL3 = (3, 3, 3)


def place_vae(key: str, size: ModelSize) -> Rule:
    """A key of ``vae/3d-vae.pt``'s state dict (or the decoder file's ``first_stage_model.``)."""
    if key.startswith("loss."):
        return Skip("training losses (discriminator, LPIPS)")
    side, _, rest = key.partition(".")
    if side not in ("encoder", "decoder"):
        return Unplaced("not under encoder. or decoder. of the released 3D VAE")
    found = _place_vae_side(side, rest, size)
    if found is None:
        return Unplaced("not a parameter of the released 3D VAE")
    return Placement(Target.VAE, (found[0],), found[1])


def _conv(kind: str, out: int, into: int, kernel: tuple[int, ...] = _KERNEL3) -> tuple[int, ...]:
    return (out, into, *kernel) if kind == "weight" else (out,)


def _place_vae_side(side: str, rest: str, size: ModelSize) -> tuple[str, tuple[int, ...]] | None:
    v = size.vae
    levels, latent = len(v.channels), v.latent_channels
    ends = re.fullmatch(r"(conv_in|conv_out)\.conv\.(weight|bias)", rest)
    if ends:
        which, kind = ends.groups()
        shapes = {("encoder", "conv_in"): (v.channels[0], 3), ("encoder", "conv_out"): (2 * latent, v.channels[-1]),
                  ("decoder", "conv_in"): (v.channels[-1], latent), ("decoder", "conv_out"): (3, v.channels[0])}
        return f"{side}.{rest}", _conv(kind, *shapes[(side, which)])
    if side == "encoder" and rest in ("norm_out.weight", "norm_out.bias"):
        return f"encoder.{rest}", (v.channels[-1],)
    if side == "decoder" and rest.startswith("norm_out."):
        shape = _spatial_norm(rest[len("norm_out."):], v.channels[0], latent)
        return (f"decoder.{rest}", shape) if shape else None
    mid = re.fullmatch(r"mid\.block_([12])\.(.+)", rest)
    if mid:
        index, tail = mid.groups()
        found = _resnet(side, tail, v.channels[-1], v.channels[-1], latent)
        return (f"{side}.mid_block.resnets.{int(index) - 1}.{found[0]}", found[1]) if found else None
    if side == "encoder":
        down = re.fullmatch(r"down\.(\d+)\.(?:block\.(\d+)\.(.+)|downsample\.conv\.(weight|bias))", rest)
        if not down or int(down.group(1)) >= levels:
            return None
        level = int(down.group(1))
        if down.group(4):
            return (f"encoder.down_blocks.{level}.downsamplers.0.conv.{down.group(4)}",
                    _conv(down.group(4), v.channels[level], v.channels[level], (3, 3)))
        block = int(down.group(2))
        into = v.channels[level - 1] if block == 0 and level > 0 else v.channels[level]
        found = _resnet(side, down.group(3), into, v.channels[level], latent)
        return (f"encoder.down_blocks.{level}.resnets.{block}.{found[0]}", found[1]) if found else None
    up = re.fullmatch(r"up\.(\d+)\.(?:block\.(\d+)\.(.+)|upsample\.conv\.(weight|bias))", rest)
    if not up or int(up.group(1)) >= levels:
        return None
    level = int(up.group(1))
    ours = levels - 1 - level  # SAT keeps the up levels by resolution; diffusers in the order they run
    if up.group(4):
        return (f"decoder.up_blocks.{ours}.upsamplers.0.conv.{up.group(4)}",
                _conv(up.group(4), v.channels[level], v.channels[level], (3, 3)))
    block = int(up.group(2))
    into = v.channels[min(level + 1, levels - 1)] if block == 0 else v.channels[level]
    found = _resnet(side, up.group(3), into, v.channels[level], latent)
    return (f"decoder.up_blocks.{ours}.resnets.{block}.{found[0]}", found[1]) if found else None


def _spatial_norm(tail: str, width: int, latent: int) -> tuple[int, ...] | None:
    """The decoder's norms are spatial norms: a group norm and two 1x1x1 convs on the latent."""
    if tail in ("norm_layer.weight", "norm_layer.bias"):
        return (width,)
    conv = re.fullmatch(r"conv_[yb]\.conv\.(weight|bias)", tail)
    return _conv(conv.group(1), width, latent, (1, 1, 1)) if conv else None


def _resnet(side: str, tail: str, into: int, out: int, latent: int) -> tuple[str, tuple[int, ...]] | None:
    """One resnet block's parameter: (its diffusers name inside the block, its shape)."""
    norm = re.fullmatch(r"(norm1|norm2)\.(.+)", tail)
    if norm:
        width = into if norm.group(1) == "norm1" else out
        if side == "encoder":
            return (tail, (width,)) if norm.group(2) in ("weight", "bias") else None
        shape = _spatial_norm(norm.group(2), width, latent)
        return (tail, shape) if shape else None
    conv = re.fullmatch(r"(conv1|conv2)\.conv\.(weight|bias)", tail)
    if conv:
        which, kind = conv.groups()
        return tail, _conv(kind, out, into if which == "conv1" else out)
    shortcut = re.fullmatch(r"nin_shortcut\.(weight|bias)", tail)
    if shortcut and into != out:
        return f"conv_shortcut.{shortcut.group(1)}", _conv(shortcut.group(1), out, into, (1, 1, 1))
    return None


PLACERS: dict[Part, Callable[[str, ModelSize], Rule]] = {
    Part.MLLM: place_mllm, Part.DECODER: place_decoder, Part.VAE: place_vae, Part.BASE: place_base,
}


def place(part: Part, key: str, size: ModelSize) -> Rule:
    return PLACERS[part](key, size)


# -- what our files must hold ---------------------------------------------------------------
def expected_keys(target: Target, size: ModelSize) -> dict[str, tuple[int, ...]]:
    """Every key of one of our files with its shape (tests check these against the models)."""
    return {Target.BASE: _expected_base, Target.MLLM: _expected_mllm, Target.DECODER: _expected_decoder,
            Target.VAE: _expected_vae}[target](size)


def _expected_base(size: ModelSize) -> dict[str, tuple[int, ...]]:
    return {f"model.layers.{i}.{group}.{proj}.weight": mistral_linear_shape(size, proj)
            for i in range(size.mllm.layers) for proj, group in _GROUP.items()}


def _expected_mllm(size: ModelSize) -> dict[str, tuple[int, ...]]:
    m = size.mllm
    out: dict[str, tuple[int, ...]] = {"model.embed_tokens.weight": (m.vocabulary, m.hidden),
                                       "lm_head.weight": (m.vocabulary, m.hidden), "model.norm.weight": (m.hidden,)}
    for i in range(m.layers):
        for norm in ("input_layernorm", "post_attention_layernorm"):
            out[f"model.layers.{i}.{norm}.weight"] = (m.hidden,)
        for proj, group in _GROUP.items():
            rows, cols = mistral_linear_shape(size, proj)
            out[f"model.layers.{i}.{group}.{proj}.lora_A.weight"] = (m.lora_rank, cols)
            out[f"model.layers.{i}.{group}.{proj}.lora_B.weight"] = (rows, m.lora_rank)
    for side, into, outw in (("input", m.representation, m.hidden), ("output", m.hidden, m.representation)):
        out[f"{side}_resampler.0.weight"], out[f"{side}_resampler.0.bias"] = (outw, into), (outw,)
        out[f"{side}_resampler.2.weight"], out[f"{side}_resampler.2.bias"] = (outw, outw), (outw,)
    return out


def _expected_decoder(size: ModelSize) -> dict[str, tuple[int, ...]]:
    t = size.decoder
    h, te, r = t.hidden, t.time_embed, t.lora_rank
    out: dict[str, tuple[int, ...]] = {}

    def linear(name: str, rows: int, cols: int) -> None:
        out[f"{name}.weight"], out[f"{name}.bias"] = (rows, cols), (rows,)

    def norm(name: str, width: int) -> None:
        out[f"{name}.weight"], out[f"{name}.bias"] = (width,), (width,)

    out["patch_embed.proj.weight"], out["patch_embed.proj.bias"] = (h, t.in_channels, t.patch, t.patch), (h,)
    linear("time_embedding.linear_1", te, h)
    linear("time_embedding.linear_2", te, te)
    linear("ofs_embedding.linear_1", te, h)
    linear("ofs_embedding.linear_2", te, te)
    for i in range(t.layers):
        block = f"transformer_blocks.{i}"
        for n in ("norm1", "norm2"):
            linear(f"{block}.{n}.linear", 6 * h, te)
            norm(f"{block}.{n}.norm", h)
        norm(f"{block}.attn1.norm_q", t.head_dim)
        norm(f"{block}.attn1.norm_k", t.head_dim)
        for proj in ("to_q", "to_k", "to_v", "to_out.0"):
            linear(f"{block}.attn1.{proj}", h, h)
            out[f"{block}.attn1.{proj}.lora_A.weight"] = (r, h)
            out[f"{block}.attn1.{proj}.lora_B.weight"] = (h, r)
        linear(f"{block}.ff.net.0.proj", 4 * h, h)
        linear(f"{block}.ff.net.2", h, 4 * h)
    norm("norm_final", h)
    linear("norm_out.linear", 2 * h, te)
    norm("norm_out.norm", h)
    linear("proj_out", t.patch**2 * t.out_channels, h)
    linear("conditioning.text_proj.0", h, t.t5_width)
    linear("conditioning.text_proj.2", h, h)
    linear("conditioning.ip_proj.0", h, t.clip_width)
    linear("conditioning.ip_proj.2", h, h)
    norm("conditioning.text_norm", h)
    norm("conditioning.ip_norm", h)
    return out


def _expected_vae(size: ModelSize) -> dict[str, tuple[int, ...]]:
    """Generated from the release's naming through :func:`place_vae` (one source of truth)."""
    out: dict[str, tuple[int, ...]] = {}
    for key in released_vae_keys(size):
        rule = place_vae(key, size)
        if isinstance(rule, Placement):
            out[rule.keys[0]] = rule.shape
    return out


def released_vae_keys(size: ModelSize) -> list[str]:
    """The SAT 3D VAE's parameter names at ``size`` (encoder and decoder, without losses)."""
    v = size.vae
    levels, blocks = len(v.channels), v.layers_per_block
    keys: list[str] = []

    def pair(name: str) -> None:
        keys.extend((f"{name}.weight", f"{name}.bias"))

    def resnet(prefix: str, into: int, out: int, spatial: bool) -> None:
        for n, conv in (("norm1", "conv1"), ("norm2", "conv2")):
            if spatial:
                for part in ("norm_layer", "conv_y.conv", "conv_b.conv"):
                    pair(f"{prefix}.{n}.{part}")
            else:
                pair(f"{prefix}.{n}")
            pair(f"{prefix}.{conv}.conv")
        if into != out:
            pair(f"{prefix}.nin_shortcut")

    pair("encoder.conv_in.conv")
    into = v.channels[0]
    for level, width in enumerate(v.channels):
        for block in range(blocks):
            resnet(f"encoder.down.{level}.block.{block}", into, width, spatial=False)
            into = width
        if level != levels - 1:
            pair(f"encoder.down.{level}.downsample.conv")
    for mid in (1, 2):
        resnet(f"encoder.mid.block_{mid}", into, into, spatial=False)
    pair("encoder.norm_out")
    pair("encoder.conv_out.conv")
    pair("decoder.conv_in.conv")
    for mid in (1, 2):
        resnet(f"decoder.mid.block_{mid}", v.channels[-1], v.channels[-1], spatial=True)
    into = v.channels[-1]
    for level in reversed(range(levels)):
        for block in range(blocks + 1):
            resnet(f"decoder.up.{level}.block.{block}", into, v.channels[level], spatial=True)
            into = v.channels[level]
        if level != 0:
            pair(f"decoder.up.{level}.upsample.conv")
    for part in ("norm_layer", "conv_y.conv", "conv_b.conv"):
        pair(f"decoder.norm_out.{part}")
    pair("decoder.conv_out.conv")
    return keys
