"""The mini checkpoint folder: safetensors weights, the model config, the tokenizer and a
manifest of every file's size and SHA-256.

Nothing here unpickles: weights are read with safetensors only, and a file that is
missing, of the wrong size, altered or unreadable is refused with its path named.

Layout (``checkpoints/mini/``)::

    config.json              model config, file manifest, training summary
    tokenizer.json           the LM's tokenizer (tokenizers)
    lm.safetensors           the LM (engine: predict)
    decoder.safetensors      the DiT blocks (engine: decode)
    decoder_io.safetensors   the DiT's patch embedding, conditioning and output head (engine: decode)
    latent_decoder.safetensors  the latent autoencoder's decoder (engine: decode; only when the
                             config has a ``latent``: the DiT then makes latents, this makes pixels)
    latent_encoder.safetensors  the latent autoencoder's encoder (training only)
    encoder.safetensors      the clip encoder (training only)
    judge.safetensors        the evaluation judge (``kamishibai eval mini`` only)
    critic.safetensors       the motion critic (engine: decode, to pick among candidate clips;
                             optional: listed by the config's ``critic`` widths; without it the
                             engine makes one candidate per turn)

Which files the engine needs depends on the config: :func:`engine_files`.

``decoder.safetensors`` may hold its large matrices as int8 with one float32 scale per row
(``NAME`` int8 and ``NAME`` + :data:`INT8_SCALE`): half the bytes of fp16, so that a larger
decoder still fits the checkpoint's size cap. Every reader here turns them back into floats.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch
from torch import nn

from studio.core.digest import file_sha256
from studio.core.text import first_few
from studio.engines.base import EngineLoadError
from studio.engines.catalog.mini import MANIFEST_FORMAT
from studio.engines.mini.config import ModelConfig, check_limits, check_values, from_dict, to_dict

FORMAT = MANIFEST_FORMAT
CONFIG = "config.json"
TOKENIZER = "tokenizer.json"
LM = "lm.safetensors"
DECODER = "decoder.safetensors"
DECODER_IO = "decoder_io.safetensors"
ENCODER = "encoder.safetensors"
JUDGE = "judge.safetensors"
LATENT_DECODER = "latent_decoder.safetensors"
LATENT_ENCODER = "latent_encoder.safetensors"
CRITIC = "critic.safetensors"
ENGINE_FILES = (CONFIG, TOKENIZER, LM, DECODER, DECODER_IO)
"""The engine's files for a pixel decoder (the shipped layout); see :func:`engine_files`."""
WEIGHT_FILES = (LM, DECODER, DECODER_IO, LATENT_DECODER, LATENT_ENCODER, ENCODER, JUDGE, CRITIC)
MAX_FILE_BYTES = 16_000_000
INT8_SCALE = ".int8_row_scale"
"""The suffix of an int8 matrix's per-row scales (its float value is int8 x scale)."""
RESTORE = "Restore checkpoints/mini/ from the repository (config.json and the weights together)."
"""The repair advice where the folder is not known; :func:`_restore_all` names the app's own copy."""


def _restore(path: Path) -> str:
    """How to repair the mini weights file ``path``: from the app's own copy (see
    :func:`studio.engines.catalog.mini.restore_hint`)."""
    from studio.engines.catalog.mini import restore_hint

    return restore_hint(path.parent, path.name)


def _restore_all(folder: Path) -> str:
    """How to repair the mini weights folder ``folder`` (config.json and the weights together)."""
    from studio.engines.catalog.mini import restore_hint

    return restore_hint(folder, "config.json and the weights", together=False)
"""What to do about a damaged or mismatched checkpoint folder."""
INT8_MIN_ELEMENTS = 1024
"""Only linear layers' weight matrices this large or larger become int8; biases, norms and
modulation tables stay fp16 (few bytes, and sensitive)."""


def engine_files(config: ModelConfig) -> tuple[str, ...]:
    """The files the engine needs for ``config``: a latent decoder also needs the autoencoder's
    decoder half. (The motion critic, which a config may list, is optional: :data:`CRITIC`.)"""
    return ENGINE_FILES + ((LATENT_DECODER,) if config.latent is not None else ())


def sha256(path: Path) -> str:
    return file_sha256(path)


BLOCK_PREFIXES = {"dit": ("blocks.",), "unet": ("down.", "downsample.", "mid.", "up.", "upsample.")}
"""Per decoder kind, the parameter prefixes of its bulk (:data:`DECODER`, int8 when asked);
the rest (embeddings, conditioning, input and output layers) goes to :data:`DECODER_IO`."""


def split_decoder(state: Mapping[str, torch.Tensor], kind: str = "dit"
                  ) -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
    """(the blocks, everything else): two files, each under the size cap."""
    prefixes = BLOCK_PREFIXES[kind]
    blocks = {k: v for k, v in state.items() if k.startswith(prefixes)}
    rest = {k: v for k, v in state.items() if not k.startswith(prefixes)}
    return blocks, rest


def quantize_int8(state: Mapping[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Every linear or convolution weight of :data:`INT8_MIN_ELEMENTS` or more as symmetric
    int8 per row (output channel; the row's largest magnitude maps to 127) plus its float32 row
    scales; the rest as given."""
    out: dict[str, torch.Tensor] = {}
    for name, value in state.items():
        if (name.endswith(".weight") and value.is_floating_point() and value.ndim >= 2
                and value.numel() >= INT8_MIN_ELEMENTS):
            matrix = value.detach().to("cpu", torch.float32)
            scale = matrix.flatten(1).abs().amax(dim=1).clamp_min(1e-12) / 127
            rows = scale.reshape(-1, *([1] * (matrix.ndim - 1)))
            out[name] = torch.round(matrix / rows).clamp(-127, 127).to(torch.int8)
            out[name + INT8_SCALE] = scale
        else:
            out[name] = value
    return out


def dequantize_int8(state: Mapping[str, torch.Tensor], path: Path) -> dict[str, torch.Tensor]:
    """``state`` with each int8 matrix and its scales turned back into one float32 tensor."""
    scales = {name[:-len(INT8_SCALE)]: value for name, value in state.items() if name.endswith(INT8_SCALE)}
    out: dict[str, torch.Tensor] = {}
    for name, value in state.items():
        if name.endswith(INT8_SCALE):
            if name[:-len(INT8_SCALE)] not in state:
                raise EngineLoadError(f"{path} holds row scales for a missing tensor {name[:-len(INT8_SCALE)]}.",
                                      hint=_restore(path))
            continue
        if value.dtype != torch.int8:
            out[name] = value
            continue
        scale = scales.get(name)
        if scale is None or value.ndim < 2 or tuple(scale.shape) != (value.shape[0],):
            raise EngineLoadError(f"{path}: the int8 tensor {name} has no matching row scales.",
                                  hint=_restore(path))
        out[name] = value.float() * scale.float().reshape(-1, *([1] * (value.ndim - 1)))
    return out


def save_tensors(path: Path, state: Mapping[str, torch.Tensor], dtype: torch.dtype, *, int8: bool = False) -> None:
    from safetensors.torch import save_file

    def stored(name: str, value: torch.Tensor) -> torch.Tensor:
        keep = name.endswith(INT8_SCALE) or not value.is_floating_point()  # scales stay float32
        return value.detach().to("cpu", value.dtype if keep else dtype).contiguous()

    tensors = quantize_int8(state) if int8 else dict(state)
    save_file({k: stored(k, v) for k, v in tensors.items()}, str(path), metadata={"format": FORMAT})


def save_checkpoint(folder: Path, config: ModelConfig, tokenizer_json: str, *, lm: nn.Module | None = None,
                    decoder: nn.Module | None = None, encoder: nn.Module | None = None,
                    judge: nn.Module | None = None, autoencoder: nn.Module | None = None,
                    critic: nn.Module | None = None, training: Mapping[str, Any] | None = None,
                    dtype: torch.dtype = torch.float16,
                    int8_blocks: bool = False, int8_lm: bool = False) -> dict[str, Any]:
    """Write the parts given (fp16 by default) and a manifest of every file in the folder.
    ``int8_blocks`` / ``int8_lm``: the decoder blocks' / the LM's matrices as int8 with row
    scales (half the bytes).
    ``autoencoder`` (a ``latent_ae.VideoAutoencoder``) is written in two halves: its decoder,
    which the engine loads, and its encoder, which only training needs. ``critic`` (the motion
    critic) is written only with ``config.critic`` listing its widths, which the engine reads."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / TOKENIZER).write_text(tokenizer_json, encoding="utf-8")
    if lm is not None:
        save_tensors(folder / LM, lm.state_dict(), dtype, int8=int8_lm)
    if decoder is not None:
        blocks, rest = split_decoder(decoder.state_dict(), config.decoder.kind)
        save_tensors(folder / DECODER, blocks, dtype, int8=int8_blocks)
        save_tensors(folder / DECODER_IO, rest, dtype)
    if encoder is not None:
        save_tensors(folder / ENCODER, encoder.state_dict(), dtype)
    if judge is not None:
        save_tensors(folder / JUDGE, judge.state_dict(), dtype)
    if autoencoder is not None:
        save_tensors(folder / LATENT_DECODER, _submodule(autoencoder, "decoder").state_dict(), dtype)
        save_tensors(folder / LATENT_ENCODER, _submodule(autoencoder, "encoder").state_dict(), dtype)
    if critic is not None:
        if not config.critic:
            raise ValueError("a critic is saved with config.critic set to its widths (the engine rebuilds it)")
        save_tensors(folder / CRITIC, critic.state_dict(), dtype)
    elif not config.critic and (folder / CRITIC).is_file():
        (folder / CRITIC).unlink()  # an earlier export's, which this config no longer lists
    manifest = {"format": FORMAT, "model": to_dict(config), "files": list_files(folder),
                "training": dict(training or {})}
    write_manifest(folder, manifest)
    return manifest


def list_files(folder: Path) -> dict[str, dict[str, Any]]:
    """The manifest's file list: the size and SHA-256 of every checkpoint file present."""
    files = {}
    for name in (TOKENIZER, *WEIGHT_FILES):
        path = folder / name
        if path.is_file():
            files[name] = {"bytes": path.stat().st_size, "sha256": sha256(path)}
    return files


def write_manifest(folder: Path, manifest: Mapping[str, Any]) -> None:
    (folder / CONFIG).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def _submodule(module: nn.Module, name: str) -> nn.Module:
    part = getattr(module, name, None)
    if not isinstance(part, nn.Module):
        raise TypeError(f"{type(module).__name__} has no {name} module (an autoencoder has encoder and decoder)")
    return part


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / CONFIG
    if not path.is_file():
        raise EngineLoadError(f"Missing {path}: the mini engine's config and file list.",
                              hint=f"{_restore_all(folder)} Or train the model again.")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise EngineLoadError(f"{path} can't be read: {error}.", hint=_restore_all(folder)) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise EngineLoadError(f"{path} is not a mini checkpoint's config.json (its \"format\" entry does not read "
                              f"\"{FORMAT}\").", hint=_restore_all(folder))
    if not isinstance(manifest.get("files", {}), dict):
        raise EngineLoadError(f"{path}: its 'files' entry should map each file name to its size and SHA-256, "
                              f"not {type(manifest['files']).__name__}.", hint=_restore_all(folder))
    return manifest


def model_config(manifest: Mapping[str, Any], folder: Path) -> ModelConfig:
    try:
        model = manifest["model"]
        if not isinstance(model, dict):
            raise ValueError(f"'model' should be a group of fields ({{...}}), not {model!r}")
        config = from_dict(ModelConfig, model)
        check_values(config, "model.")
        check_limits(config)
    except (KeyError, TypeError, ValueError) as error:
        raise EngineLoadError(f"{folder / CONFIG} has a bad model config: {error}.",
                              hint=_restore_all(folder)) from None
    return config


def verify_file(folder: Path, name: str, manifest: Mapping[str, Any], *, digest: bool = True) -> Path:
    """``folder/name`` if it is there and matches the manifest (size, and SHA-256 when ``digest``)."""
    path = folder / name
    files = manifest.get("files", {})
    expected = files.get(name) if isinstance(files, Mapping) else None
    if not path.is_file():
        raise EngineLoadError(f"Missing {path}.", hint=_restore(path))
    if not isinstance(expected, dict):
        raise EngineLoadError(f"{path} is not listed in {folder / CONFIG}.", hint=_restore_all(folder))
    listed = expected.get("bytes")
    unlisted_digest = digest and not isinstance(expected.get("sha256"), str)
    if isinstance(listed, bool) or not isinstance(listed, int) or unlisted_digest:
        raise EngineLoadError(f"{folder / CONFIG} lists {name} without its size in bytes and SHA-256.",
                              hint=_restore_all(folder))
    try:
        size = path.stat().st_size
        found = sha256(path) if digest and size == listed else None
    except OSError as error:  # unreadable: its permissions (a copy made by another user), a failing disk
        raise EngineLoadError(f"{path} can't be read: {error.strerror or error}.",
                              hint=f"Make the file readable by the user who runs the studio. Or: "
                                   f"{_restore(path)}") from None
    if size != listed:
        raise EngineLoadError(f"{path} is {size:,} bytes, expected {listed:,} (incomplete copy?).",
                              hint=_restore(path))
    if digest and found != expected.get("sha256"):
        raise EngineLoadError(f"{path} is corrupt: its SHA-256 does not match {folder / CONFIG}.",
                              hint=_restore(path))
    return path


def load_tensors(path: Path) -> dict[str, torch.Tensor]:
    """The tensors of one safetensors file (never unpickles), int8 matrices as floats."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    try:
        state = load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:
        raise EngineLoadError(f"{path} is not a readable safetensors file: {error}.",
                              hint=_restore(path)) from None
    state = dequantize_int8(state, path)
    check_finite(state, path)
    return state


def check_finite(state: Mapping[str, torch.Tensor], path: Path) -> None:
    """Refuse weights that are not numbers (NaN or infinite). A file whose manifest entry was
    written with it passes every size and SHA-256 check, and would otherwise load and make
    black clips, or fail each turn with a prediction that is not numbers."""
    bad = [name for name, value in state.items() if value.is_floating_point() and not bool(torch.isfinite(value).all())]
    if bad:
        raise EngineLoadError(f"{path} holds weights that are not numbers (NaN or infinite) in {len(bad)} "
                              f"tensor{'s' if len(bad) != 1 else ''} ({first_few(bad, limit=3)}): the file is "
                              "damaged, or was exported from a training run that failed.",
                              hint=_restore(path))


def check_kinds(expected: Mapping[str, torch.dtype], state: Mapping[str, torch.Tensor], path: Path) -> None:
    """Refuse tensors stored as whole numbers or booleans where the model (``expected``: name ->
    its dtype) has floating-point weights: ``load_state_dict`` would quietly cast them, and the
    model would run on weights rounded to whole numbers (mostly zeros)."""
    wrong = [f"{name} is {str(value.dtype).removeprefix('torch.')}" for name, value in state.items()
             if name in expected and expected[name].is_floating_point and not value.is_floating_point()]
    if wrong:
        raise EngineLoadError(f"{path} holds {len(wrong)} tensor{'s' if len(wrong) != 1 else ''} that "
                              f"{'are' if len(wrong) != 1 else 'is'} not floating-point where the model has "
                              f"floating-point weights ({first_few(wrong, limit=3)}): it was not written by "
                              "the mini model's export.", hint=_restore(path))


def load_float_into(module: nn.Module, path: Path) -> None:
    """Load ``path`` (fp16 on disk) into ``module`` as float32 weights."""
    state = load_tensors(path)
    check_kinds({k: v.dtype for k, v in module.state_dict().items()}, state, path)  # before .float() hides them
    load_into(module, {k: v.float() for k, v in state.items()}, path)


def load_into(module: nn.Module, state: Mapping[str, torch.Tensor], path: Path) -> None:
    check_kinds({k: v.dtype for k, v in module.state_dict().items()}, state, path)
    try:
        module.load_state_dict(dict(state), strict=True)
    except RuntimeError:
        details = state_mismatch({k: tuple(v.shape) for k, v in module.state_dict().items()},
                                 {k: tuple(v.shape) for k, v in state.items()})
        raise EngineLoadError(f"{path} does not fit the model in its config.json: {details or 'the weights differ'}.",
                              hint=f"Keep the config.json that came with these weights. Or: "
                                   f"{_restore_all(path.parent)}") from None


def state_mismatch(expected: Mapping[str, tuple[int, ...]], found: Mapping[str, tuple[int, ...]],
                   most: int = 3) -> str:
    """A short account of how the tensors ``found`` (name -> shape) differ from those a model
    ``expected``: a few missing and unexpected names and shape mismatches, with their counts
    ('' when they agree). A full state-dict error lists every layer, too long to read."""
    missing = [k for k in expected if k not in found]
    unexpected = [k for k in found if k not in expected]
    shapes = [f"{k} is {list(found[k])}, not {list(expected[k])}" for k in expected
              if k in found and tuple(found[k]) != tuple(expected[k])]

    def part(one: str, many: str, items: list[str]) -> str:
        return f"{len(items)} {one if len(items) == 1 else many} ({first_few(items, limit=most)})"

    return "; ".join(part(one, many, items) for one, many, items in (
        ("missing tensor", "missing tensors", missing), ("unexpected tensor", "unexpected tensors", unexpected),
        ("shape mismatch", "shape mismatches", shapes)) if items)
