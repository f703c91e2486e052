"""Converting CustomX's released files into our safetensors layout.

Released (what the user downloads):

- ``hunyuancustom_editing_720P/mp_rank_00_model_states.pt``: HunyuanCustom's transformer in
  HunyuanVideo's own names, under the key ``module``. Read with ``torch.load(weights_only=True)``
  (tensors and plain containers only, never arbitrary objects).
- ``pytorch_lora_kohaya_weights.safetensors``: the CustomX LoRA, Kohya names
  (``Hunyuan_video_I2V_lora_<module with _>.lora_down/lora_up/alpha``), rank 64; merged as the
  reference does: ``W += scale * (up @ down)``, alpha ignored.
- the HunyuanVideo VAE (``pytorch_model.pt`` or ``.safetensors``; diffusers' names);
- ``llava-llama-3-8b-v1_1-transformers/`` and ``clip-vit-large-patch14/`` (Hugging Face folders
  of safetensors and tokenizer files).

Every key is accounted for: renamed, split (fused q/k/v), reordered (the output layer's
shift/scale), merged (LoRA), or dropped by name because the encoder never uses it (the
language model's head, CLIP's vision half). Any other key is refused with its name, and the
result must hold exactly the keys of our models (``components.check_keys``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import torch

from studio.core.errors import StudioError
from studio.engines.catalog import customx as catalog
from studio.engines.customx.hf_config import config_hint, config_problem
from studio.engines.customx.sizes import RELEASED, ModelSize
from studio.engines.partial_files import check_writable, save_whole, write_whole

if TYPE_CHECKING:
    from studio.engines.customx.components import Tokenizers

LORA_PREFIX = "Hunyuan_video_I2V_lora_"


class ConversionError(StudioError, ValueError):
    """A released file that doesn't convert (the message names the file and the key). A
    :class:`StudioError`, so that the command reports it as such, not as an internal error."""


# -- the transformer: HunyuanVideo's names -> diffusers' -----------------------------------
_QKV = ("to_q", "to_k", "to_v")
_ADDED_QKV = ("add_q_proj", "add_k_proj", "add_v_proj")
_REFINER = "context_embedder.token_refiner.refiner_blocks"
_RULES: tuple[tuple[str, str | tuple[str, ...]], ...] = (
    (r"img_in\.proj\.(weight|bias)", r"x_embedder.proj.\1"),
    (r"bg_in\.proj\.(weight|bias)", r"bg_in.proj.\1"),
    (r"bg_proj\.(weight|bias)", r"bg_proj.\1"),
    (r"time_in\.mlp\.0\.(weight|bias)", r"time_text_embed.timestep_embedder.linear_1.\1"),
    (r"time_in\.mlp\.2\.(weight|bias)", r"time_text_embed.timestep_embedder.linear_2.\1"),
    (r"vector_in\.in_layer\.(weight|bias)", r"time_text_embed.text_embedder.linear_1.\1"),
    (r"vector_in\.out_layer\.(weight|bias)", r"time_text_embed.text_embedder.linear_2.\1"),
    (r"txt_in\.input_embedder\.(weight|bias)", r"context_embedder.proj_in.\1"),
    (r"txt_in\.t_embedder\.mlp\.0\.(weight|bias)", r"context_embedder.time_text_embed.timestep_embedder.linear_1.\1"),
    (r"txt_in\.t_embedder\.mlp\.2\.(weight|bias)", r"context_embedder.time_text_embed.timestep_embedder.linear_2.\1"),
    (r"txt_in\.c_embedder\.linear_([12])\.(weight|bias)",
     r"context_embedder.time_text_embed.text_embedder.linear_\1.\2"),
    (r"txt_in\.individual_token_refiner\.blocks\.(\d+)\.norm([12])\.(weight|bias)", _REFINER + r".\1.norm\2.\3"),
    (r"txt_in\.individual_token_refiner\.blocks\.(\d+)\.self_attn_qkv\.(weight|bias)",
     tuple(_REFINER + r".\1.attn." + n + r".\2" for n in _QKV)),
    (r"txt_in\.individual_token_refiner\.blocks\.(\d+)\.self_attn_proj\.(weight|bias)",
     _REFINER + r".\1.attn.to_out.0.\2"),
    (r"txt_in\.individual_token_refiner\.blocks\.(\d+)\.mlp\.fc1\.(weight|bias)", _REFINER + r".\1.ff.net.0.proj.\2"),
    (r"txt_in\.individual_token_refiner\.blocks\.(\d+)\.mlp\.fc2\.(weight|bias)", _REFINER + r".\1.ff.net.2.\2"),
    (r"txt_in\.individual_token_refiner\.blocks\.(\d+)\.adaLN_modulation\.1\.(weight|bias)",
     _REFINER + r".\1.norm_out.linear.\2"),
    (r"double_blocks\.(\d+)\.img_mod\.linear\.(weight|bias)", r"transformer_blocks.\1.norm1.linear.\2"),
    (r"double_blocks\.(\d+)\.txt_mod\.linear\.(weight|bias)", r"transformer_blocks.\1.norm1_context.linear.\2"),
    (r"double_blocks\.(\d+)\.img_attn_qkv\.(weight|bias)",
     tuple(r"transformer_blocks.\1.attn." + n + r".\2" for n in _QKV)),
    (r"double_blocks\.(\d+)\.txt_attn_qkv\.(weight|bias)",
     tuple(r"transformer_blocks.\1.attn." + n + r".\2" for n in _ADDED_QKV)),
    (r"double_blocks\.(\d+)\.img_attn_q_norm\.weight", r"transformer_blocks.\1.attn.norm_q.weight"),
    (r"double_blocks\.(\d+)\.img_attn_k_norm\.weight", r"transformer_blocks.\1.attn.norm_k.weight"),
    (r"double_blocks\.(\d+)\.txt_attn_q_norm\.weight", r"transformer_blocks.\1.attn.norm_added_q.weight"),
    (r"double_blocks\.(\d+)\.txt_attn_k_norm\.weight", r"transformer_blocks.\1.attn.norm_added_k.weight"),
    (r"double_blocks\.(\d+)\.img_attn_proj\.(weight|bias)", r"transformer_blocks.\1.attn.to_out.0.\2"),
    (r"double_blocks\.(\d+)\.txt_attn_proj\.(weight|bias)", r"transformer_blocks.\1.attn.to_add_out.\2"),
    (r"double_blocks\.(\d+)\.img_mlp\.fc1\.(weight|bias)", r"transformer_blocks.\1.ff.net.0.proj.\2"),
    (r"double_blocks\.(\d+)\.img_mlp\.fc2\.(weight|bias)", r"transformer_blocks.\1.ff.net.2.\2"),
    (r"double_blocks\.(\d+)\.txt_mlp\.fc1\.(weight|bias)", r"transformer_blocks.\1.ff_context.net.0.proj.\2"),
    (r"double_blocks\.(\d+)\.txt_mlp\.fc2\.(weight|bias)", r"transformer_blocks.\1.ff_context.net.2.\2"),
    (r"single_blocks\.(\d+)\.linear1\.(weight|bias)",
     tuple(r"single_transformer_blocks.\1." + n + r".\2" for n in ("attn.to_q", "attn.to_k", "attn.to_v",
                                                                     "proj_mlp"))),
    (r"single_blocks\.(\d+)\.linear2\.(weight|bias)", r"single_transformer_blocks.\1.proj_out.\2"),
    (r"single_blocks\.(\d+)\.q_norm\.weight", r"single_transformer_blocks.\1.attn.norm_q.weight"),
    (r"single_blocks\.(\d+)\.k_norm\.weight", r"single_transformer_blocks.\1.attn.norm_k.weight"),
    (r"single_blocks\.(\d+)\.modulation\.linear\.(weight|bias)", r"single_transformer_blocks.\1.norm.linear.\2"),
    (r"final_layer\.linear\.(weight|bias)", r"proj_out.\1"),
    (r"final_layer\.adaLN_modulation\.1\.(weight|bias)", r"norm_out.linear.\1"),
)
_COMPILED = tuple((re.compile(pattern + "$"), target) for pattern, target in _RULES)
SWAPPED_HALVES = re.compile(r"final_layer\.adaLN_modulation\.1\.(weight|bias)$")
"""HunyuanVideo's output modulation is (shift, scale); diffusers' AdaLayerNormContinuous reads (scale, shift)."""


def released_targets(name: str) -> tuple[str, ...] | None:
    """Our names for a released transformer key (several when it is split), or None."""
    for pattern, target in _COMPILED:
        match = pattern.match(name)
        if match:
            targets = target if isinstance(target, tuple) else (target,)
            return tuple(match.expand(t) for t in targets)
    return None


def split_sizes(name: str, tensor: torch.Tensor, hidden: int) -> list[int]:
    if tensor.ndim == 0:
        return [0]
    if ".linear1." in name:
        return [hidden, hidden, hidden, tensor.shape[0] - 3 * hidden]
    return [tensor.shape[0] // 3] * 3


def convert_transformer(released: Mapping[str, torch.Tensor], hidden: int, where: str = "transformer"
                        ) -> dict[str, torch.Tensor]:
    for name in released:  # every name first: a misnamed key is refused before anything is converted
        if released_targets(name) is None:
            raise ConversionError(f"{where}: unknown key {name!r}; it is not a HunyuanCustom transformer key this "
                                  f"converter knows, so the file is refused rather than loaded partly.")
    out: dict[str, torch.Tensor] = {}
    for name, tensor in released.items():
        targets = released_targets(name)
        assert targets is not None
        if len(targets) > 1:
            sizes = split_sizes(name, tensor, hidden)
            if tensor.ndim == 0 or min(sizes) <= 0 or sum(sizes) != tensor.shape[0]:
                raise ConversionError(f"{where}: {name!r} has shape {tuple(tensor.shape)}, which doesn't split into "
                                      f"{len(targets)} parts for a transformer of width {hidden}; the file is not "
                                      "HunyuanCustom's 720P transformer.",
                                      hint="Give hunyuancustom_editing_720P/mp_rank_00_model_states.pt.")
            for target, piece in zip(targets, torch.split(tensor, sizes), strict=True):
                out[target] = piece.contiguous()
        elif SWAPPED_HALVES.match(name):
            shift, scale = tensor.chunk(2, dim=0)
            out[targets[0]] = torch.cat([scale, shift]).contiguous()
        else:
            out[targets[0]] = tensor
    return out


def released_names(size: ModelSize) -> list[str]:
    """Every key of HunyuanCustom's (editing) transformer at ``size``, in HunyuanVideo's names."""
    wb = ("weight", "bias")
    names = [f"{m}.{k}" for m in ("img_in.proj", "bg_in.proj", "bg_proj", "time_in.mlp.0", "time_in.mlp.2",
                                  "vector_in.in_layer", "vector_in.out_layer", "txt_in.input_embedder",
                                  "txt_in.t_embedder.mlp.0", "txt_in.t_embedder.mlp.2", "txt_in.c_embedder.linear_1",
                                  "txt_in.c_embedder.linear_2", "final_layer.linear",
                                  "final_layer.adaLN_modulation.1") for k in wb]
    t = size.transformer
    for i in range(t.refiner_layers):
        names += [f"txt_in.individual_token_refiner.blocks.{i}.{m}.{k}" for m in (
            "norm1", "norm2", "self_attn_qkv", "self_attn_proj", "mlp.fc1", "mlp.fc2", "adaLN_modulation.1")
            for k in wb]
    for i in range(t.double_layers):
        names += [f"double_blocks.{i}.{m}.{k}" for m in (
            "img_mod.linear", "txt_mod.linear", "img_attn_qkv", "txt_attn_qkv", "img_attn_proj", "txt_attn_proj",
            "img_mlp.fc1", "img_mlp.fc2", "txt_mlp.fc1", "txt_mlp.fc2") for k in wb]
        names += [f"double_blocks.{i}.{m}.weight" for m in ("img_attn_q_norm", "img_attn_k_norm", "txt_attn_q_norm",
                                                            "txt_attn_k_norm")]
    for i in range(t.single_layers):
        names += [f"single_blocks.{i}.{m}.{k}" for m in ("linear1", "linear2", "modulation.linear") for k in wb]
        names += [f"single_blocks.{i}.{m}.weight" for m in ("q_norm", "k_norm")]
    return names


def to_released(ours: Mapping[str, torch.Tensor], size: ModelSize) -> dict[str, torch.Tensor]:
    """The inverse of ``convert_transformer``: our tensors in HunyuanVideo's names (to write
    test releases and to fill the reference implementation in parity checks)."""
    out = {}
    for name in released_names(size):
        targets = released_targets(name)
        assert targets is not None, name
        tensor = torch.cat([ours[t] for t in targets])
        if SWAPPED_HALVES.match(name):
            scale, shift = tensor.chunk(2, dim=0)
            tensor = torch.cat([shift, scale])
        out[name] = tensor.contiguous()
    return out


# -- the LoRA ------------------------------------------------------------------------------
def merge_kohya_lora(weights: dict[str, torch.Tensor], lora: Mapping[str, torch.Tensor], scale: float = 1.0,
                     where: str = "LoRA") -> int:
    """Merge a Kohya LoRA into released-name ``weights`` in place: W += scale * (up @ down).
    Returns the number of modules changed. A LoRA key naming no module is refused."""
    modules = {name[: -len(".weight")].replace(".", "_"): name for name in weights
               if name.endswith(".weight") and weights[name].ndim == 2}
    pairs: dict[str, dict[str, torch.Tensor]] = {}
    for key, tensor in lora.items():
        if not key.startswith(LORA_PREFIX):
            raise ConversionError(f"{where}: key {key!r} lacks the {LORA_PREFIX!r} prefix of the CustomX LoRA.")
        module, _, part = key[len(LORA_PREFIX):].partition(".")
        if part not in ("lora_down.weight", "lora_up.weight", "alpha"):
            raise ConversionError(f"{where}: key {key!r} is not a Kohya LoRA tensor (lora_down, lora_up, alpha).")
        if module not in modules:
            raise ConversionError(f"{where}: key {key!r} names no layer of the transformer ({module!r}).")
        pairs.setdefault(module, {})[part] = tensor
    for module, parts in pairs.items():
        if "lora_down.weight" not in parts or "lora_up.weight" not in parts:
            raise ConversionError(f"{where}: {LORA_PREFIX}{module} lacks its lora_down or lora_up weight.")
        target = modules[module]
        base = weights[target]
        delta = parts["lora_up.weight"].float() @ parts["lora_down.weight"].float()
        if delta.shape != base.shape:
            raise ConversionError(f"{where}: {LORA_PREFIX}{module} makes a {tuple(delta.shape)} update for "
                                  f"{target} of {tuple(base.shape)}.")
        weights[target] = (base.float() + scale * delta).to(base.dtype)  # alpha ignored, as the reference
    return len(pairs)


# -- the text encoders ---------------------------------------------------------------------
_LLAVA_RULES = (
    (r"(?:model\.)?language_model\.model\.(.+)", r"llm.\1"),
    (r"model\.language_model\.(.+)", r"llm.\1"),
    (r"(?:model\.)?vision_tower\.vision_model\.(.+)", r"vision.\1"),
    (r"(?:model\.)?vision_tower\.(.+)", r"vision.\1"),
    (r"(?:model\.)?multi_modal_projector\.(linear_[12]\.(?:weight|bias))", r"projector.\1"),
)
_LLAVA_DROPPED = re.compile(r"(?:language_model\.)?lm_head\.weight$")
_CLIP_DROPPED = re.compile(r"(vision_model\..+|visual_projection\.weight|text_projection\.weight|logit_scale)$")


def convert_llava(released: Mapping[str, torch.Tensor], where: str) -> tuple[dict[str, torch.Tensor], list[str]]:
    out, dropped = {}, []
    for name, tensor in released.items():
        if _LLAVA_DROPPED.match(name):
            dropped.append(name)
            continue
        for pattern, target in _LLAVA_RULES:
            match = re.fullmatch(pattern, name)
            if match:
                out[match.expand(target)] = tensor
                break
        else:
            raise ConversionError(f"{where}: unknown key {name!r} for LLaVA-Llama-3.")
    return out, dropped


def convert_clip_text(released: Mapping[str, torch.Tensor], where: str) -> tuple[dict[str, torch.Tensor], list[str]]:
    out, dropped = {}, []
    for name, tensor in released.items():
        if _CLIP_DROPPED.match(name):
            dropped.append(name)
        elif name.startswith("text_model."):
            out["model." + name.removeprefix("text_model.")] = tensor
        else:
            raise ConversionError(f"{where}: unknown key {name!r} for CLIP-L's text model.")
    return out, dropped


# -- reading -------------------------------------------------------------------------------
def read_tensors(path: Path, headers_only: bool = False) -> dict[str, torch.Tensor]:
    """A .safetensors file, a folder of them, or a pickle read with ``weights_only=True``.
    ``headers_only``: the safetensors files' names and shapes, as tensors on the meta device,
    without reading their data (to check a part before the destination changes)."""
    reader = _read_header if headers_only else _read_safetensors
    if path.is_dir():
        return _read_folder(path, reader)
    if not path.is_file():
        raise ConversionError(f"Missing {path}.", hint="Check the path of the released file.")
    if path.suffix == ".safetensors":
        return reader(path)
    from studio.engines.animegamer.safe_load import load_weights

    try:  # weights only: a pickled object other than tensors is refused, named, and never run
        loaded = load_weights(path)
    except StudioError as error:
        raise ConversionError(error.message, hint=error.hint) from None
    for key in ("module", "state_dict"):
        if isinstance(loaded, dict) and key in loaded and isinstance(loaded[key], dict):
            loaded = loaded[key]
    if not isinstance(loaded, dict) or not all(isinstance(v, torch.Tensor) for v in loaded.values()):
        raise ConversionError(f"{path} does not hold a flat dict of tensors.", hint=RELEASED_HINT)
    unnamed = [name for name in loaded if not isinstance(name, str)]
    if unnamed:  # QA: an internal error ("'int' object has no attribute 'endswith'")
        raise ConversionError(f"{path} holds a key that is not text ({unnamed[0]!r}), so it is not a dictionary of "
                              "named weights.", hint=RELEASED_HINT)
    return dict(loaded)


RELEASED_HINT = "Is this the released file? `kamishibai checkpoints convert-customx --help` names each one."


SHARD_HINT = "Download the folder again: every file its index names, whole."


def _read_folder(path: Path, reader: Callable[[Path], dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """A Hugging Face folder's tensors: the shards its ``*.safetensors.index.json`` names (each
    must be there, beside the index, and hold the tensors the index lists for it), else every
    ``*.safetensors``. A tensor held by two files is refused: merging them silently kept
    whichever was read last (a stray file from another download replaced weights)."""
    index = _find_safetensors_index(path)
    if index is None:
        files = sorted(path.glob("*.safetensors"))
        if not files:
            raise ConversionError(f"{path} holds no .safetensors files.",
                                  hint="Give the model's Hugging Face folder with its .safetensors weights.")
        _check_numbered_shards(path, files)
        return _merge_files(files, reader)
    from studio.engines.animegamer.shards import ShardIndexError, read_weight_map

    try:
        weight_map = read_weight_map(index)
    except ShardIndexError as error:
        raise ConversionError(str(error), hint=SHARD_HINT) from None
    if not weight_map:
        raise ConversionError(f"{index} lists no tensors.", hint=SHARD_HINT)
    shards = sorted(set(weight_map.values()))
    missing = [name for name in shards if not (path / name).is_file()]
    if missing:
        raise ConversionError(f"{index} names {len(missing)} shard(s) that are not in {path}: {', '.join(missing)}.",
                              hint=SHARD_HINT)
    merged = _merge_files([path / name for name in shards], reader)
    absent = sorted(name for name in weight_map if name not in merged)
    if absent:
        raise ConversionError(f"{path / weight_map[absent[0]]} lacks the tensor {absent[0]!r} that {index.name} "
                              f"lists for it ({len(absent)} listed tensors are in no shard).", hint=SHARD_HINT)
    return merged


_NUMBERED = re.compile(r"(.+)-(\d+)-of-(\d+)\.safetensors")


def _check_numbered_shards(folder: Path, files: list[Path]) -> None:
    """Without an index, shards named ``model-00002-of-00004.safetensors`` still say how many
    there are: a missing one is named here, not reported later as tensors missing from the
    converted text encoder."""
    for file in files:
        match = _NUMBERED.fullmatch(file.name)
        if match is None or not 0 < int(match.group(3)) <= 10_000:  # not a shard count
            continue
        stem, digits, total = match.group(1), len(match.group(2)), int(match.group(3))
        wanted = [f"{stem}-{i:0{digits}d}-of-{match.group(3)}.safetensors" for i in range(1, total + 1)]
        missing = [name for name in wanted if not (folder / name).is_file()]
        if missing:
            raise ConversionError(f"{folder} lacks {len(missing)} of the {total} shards of {stem}: "
                                  f"{', '.join(missing)} (and its model.safetensors.index.json is missing too).",
                                  hint=SHARD_HINT)


def _find_safetensors_index(folder: Path) -> Path | None:
    """``model.safetensors.index.json``, else the folder's one ``*.safetensors.index.json``;
    several others are refused (which shards belong together would be a guess)."""
    if (folder / "model.safetensors.index.json").is_file():
        return folder / "model.safetensors.index.json"
    found = sorted(p for p in folder.glob("*.safetensors.index.json") if p.is_file())
    if len(found) > 1:
        raise ConversionError(f"{folder} holds {len(found)} shard indexes: {', '.join(p.name for p in found)}.",
                              hint="Keep only the index of the download (model.safetensors.index.json).")
    return found[0] if found else None


def _merge_files(files: list[Path], reader: Callable[[Path], dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    merged: dict[str, torch.Tensor] = {}
    origin: dict[str, Path] = {}
    for file in files:
        for name, tensor in reader(file).items():
            if name in origin:
                raise ConversionError(f"{origin[name]} and {file} both hold the tensor {name!r}.",
                                      hint="Remove the file that is not part of the download, or download the "
                                           "folder again.")
            origin[name] = file
            merged[name] = tensor
    return merged


def _read_safetensors(path: Path) -> dict[str, torch.Tensor]:
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    try:
        return load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:
        raise _unreadable(path, error) from None


def _read_header(path: Path) -> dict[str, torch.Tensor]:
    """``path``'s tensors as meta tensors of their shapes; its header is checked against the
    file's size (a cut-short file is refused here), its data is not read."""
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(path), framework="pt") as file:
            names = file.keys()
            return {name: torch.empty(file.get_slice(name).get_shape(), device="meta") for name in names}
    except (SafetensorError, OSError, ValueError) as error:
        raise _unreadable(path, error) from None


def _unreadable(path: Path, error: Exception) -> ConversionError:
    return ConversionError(f"{path} is not a readable safetensors file: {error}.",
                           hint="Download the file again (an interrupted download is shorter).")


@dataclass
class ConversionReport:
    written: list[str] = field(default_factory=list)
    placed: int = 0
    dropped: list[str] = field(default_factory=list)
    lora_modules: int = 0


@dataclass(frozen=True)
class ReleasedFiles:
    transformer: Path
    lora: Path | None
    vae: Path
    llava: Path
    clip: Path


def convert_release(files: ReleasedFiles, checkpoints: Path, size: ModelSize = RELEASED, lora_scale: float = 1.0,
                    dtype: torch.dtype = torch.bfloat16,
                    log: Callable[[str], None] = lambda _line: None) -> ConversionReport:
    """Write ``<checkpoints>/customx/`` from the released files; ``model.json`` last."""
    from studio.engines.customx.components import WeightsError

    try:
        return _convert_release(files, checkpoints, size, lora_scale, dtype, log)
    except WeightsError as error:  # a tokenizer or a converted part that does not fit our models
        raise ConversionError(str(error), hint="Check that each path names the released file it asks for.") from None


def _convert_release(files: ReleasedFiles, checkpoints: Path, size: ModelSize, lora_scale: float,
                     dtype: torch.dtype, log: Callable[[str], None]) -> ConversionReport:
    """Every input that can be checked is checked before ``<checkpoints>/customx/`` changes:
    the tokenizers, the text encoders' keys and shapes (from their safetensors headers), the
    transformer with the LoRA merged and the VAE. QA: ``model.json`` was removed and the
    tokenizers replaced first, so a re-conversion stopped by a cut-short LoRA or a wrong
    --llava folder left a working checkpoint unusable."""
    import tempfile

    folder = checkpoints / catalog.NAME
    for option, source in (("--llava", files.llava), ("--clip", files.clip)):  # a few bytes, before the rest
        problem = config_problem(option, source, size.text, size.name)
        if problem is not None:
            raise ConversionError(f"{problem}.", hint=config_hint(option))
    check_writable(folder, _write_error)
    report = ConversionReport()
    with tempfile.TemporaryDirectory(prefix="kamishibai-customx-") as staging:
        tokenizers = _stage_tokenizers(files, Path(staging))
        for part, option, source, convert, file in (
                ("text_encoder", "--llava", files.llava, convert_llava, catalog.TEXT_ENCODER_FILE),
                ("text_encoder_2", "--clip", files.clip, convert_clip_text, catalog.TEXT_ENCODER_2_FILE)):
            headers, _ = convert(read_tensors(source, headers_only=True), str(source))
            _check(part, size, tokenizers, headers, _given(option, source, file))
        released = read_tensors(files.transformer)
        if files.lora is not None:
            report.lora_modules = merge_kohya_lora(released, read_tensors(files.lora), lora_scale, str(files.lora))
            log(f"merged the LoRA into {report.lora_modules} layers")
        transformer = convert_transformer(released, size.transformer.hidden, str(files.transformer))
        del released
        _check("transformer", size, tokenizers, transformer,
               _given("--transformer", files.transformer, catalog.TRANSFORMER_FILE))
        vae = {k.removeprefix("vae."): v for k, v in read_tensors(files.vae).items()}
        _check("vae", size, tokenizers, vae, _given("--vae", files.vae, catalog.VAE_FILE))
        try:  # from here the folder changes: incomplete until model.json is written again
            (folder / catalog.MODEL_FILE).unlink(missing_ok=True)
            for sub in ("tokenizer", "tokenizer_2"):
                shutil.copytree(Path(staging) / sub, folder / sub, dirs_exist_ok=True)
        except OSError as error:
            raise _write_error(folder, error) from None

    def write(tensors: dict[str, torch.Tensor], file: str, cast: torch.dtype) -> None:
        _save({k: v.to(cast).contiguous() for k, v in tensors.items()}, folder / file)
        report.placed += len(tensors)
        report.written.append(file)
        log(f"wrote {folder / file} ({len(tensors)} tensors)")

    write(transformer, catalog.TRANSFORMER_FILE, dtype)
    del transformer
    write(vae, catalog.VAE_FILE, torch.float16)
    del vae
    llava, dropped = convert_llava(read_tensors(files.llava), str(files.llava))
    report.dropped += dropped
    _check("text_encoder", size, tokenizers, llava, _given("--llava", files.llava, catalog.TEXT_ENCODER_FILE))
    write(llava, catalog.TEXT_ENCODER_FILE, torch.float16)
    del llava
    clip, dropped = convert_clip_text(read_tensors(files.clip), str(files.clip))
    report.dropped += dropped
    _check("text_encoder_2", size, tokenizers, clip, _given("--clip", files.clip, catalog.TEXT_ENCODER_2_FILE))
    write(clip, catalog.TEXT_ENCODER_2_FILE, torch.float16)
    _write_record(folder / catalog.MODEL_FILE, json.dumps(
        {"size": size.to_json(), "source": {k: str(v) for k, v in vars(files).items()},
         "lora_scale": lora_scale, "dropped": report.dropped}, indent=1))
    report.written.append(catalog.MODEL_FILE)
    return report


def _stage_tokenizers(files: ReleasedFiles, staging: Path) -> Tokenizers:
    """The two tokenizers copied under ``staging`` (as they will lie in the checkpoint) and loaded."""
    from studio.engines.customx.components import WeightsError, load_tokenizers

    for sub, source in (("tokenizer", files.llava), ("tokenizer_2", files.clip)):
        target = staging / sub
        target.mkdir()
        if not (source / "tokenizer.json").is_file():
            model = "LLaVA-Llama-3" if sub == "tokenizer" else "CLIP-L"
            raise ConversionError(f"Missing {source / 'tokenizer.json'}.",
                                  hint=f"Give the Hugging Face folder of {model} (its tokenizer.json and .safetensors "
                                       "files).")
        for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
            if (source / name).is_file():
                shutil.copyfile(source / name, target / name)
    try:
        return load_tokenizers(staging)
    except WeightsError as error:  # it named the staged copy, a temporary file gone once the command ends
        message = str(error)
        for sub, source in (("tokenizer_2", files.clip), ("tokenizer", files.llava)):
            message = message.replace(f"{staging / sub}{os.sep}", f"{source}{os.sep}")
        raise ConversionError(message, hint="Give the model's Hugging Face folder, whole (download its tokenizer "
                                            "files again if one is damaged).") from None


def _given(option: str, source: Path, file: str) -> str:
    """How a check's error names what it checked: the option and the path the user gave (QA:
    only our converted file's name was said, "text_encoder.safetensors (converted)", a file the
    user never named and that was not written)."""
    return f"{option} {source} (converted as {file})"


def _check(part: str, size: ModelSize, tokenizers: Tokenizers, tensors: Mapping[str, torch.Tensor], where: str
           ) -> None:
    """``tensors`` (real, or shapes only on the meta device) hold exactly ``part``'s keys and
    shapes; ``where`` names them (:func:`_given`)."""
    from studio.engines.customx.components import build, check_keys

    with torch.device("meta"):
        model = build(part, size, tokenizers)
    check_keys(model, tensors, where)


def _save(tensors: dict[str, torch.Tensor], path: Path) -> None:
    """Write ``path`` whole or not at all (:func:`save_whole`): a cut-short file of gigabytes is
    neither left behind nor taken for a converted one."""
    save_whole(tensors, path, None, _write_error)


def _write_record(path: Path, text: str) -> None:
    """Write ``model.json``, which makes the checkpoint complete, whole or not at all. QA: a
    disk that filled up while it was written left a cut-short model.json, and the command
    ended in "A write failed ... `kamishibai tree PATH` shows it" about a project, without
    naming the file or saying that the checkpoint was not usable."""
    write_whole(path, lambda partial: partial.write_text(text, encoding="utf-8"), _write_error)


def _write_error(path: Path, error: OSError) -> ConversionError:
    return ConversionError(f"Can't write {path}: {error.strerror or type(error).__name__}.",
                           hint="Give --checkpoints a folder you can write to, with room for the converted files.")


def list_files(folder: Path) -> Iterable[tuple[str, bool, int]]:
    """(relative path, present, bytes) for each file of our layout."""
    for item in catalog.FILES:
        path = folder / item.path
        yield item.path, path.is_file(), path.stat().st_size if path.is_file() else 0
