"""Building CustomX's models at a size, on a device, and filling them from our safetensors.

Models are built directly on their device in their dtype (building the released
transformer on the CPU in float32 first would take minutes and 50 GB), then every tensor of
the file is copied in with a strict check: a missing or unexpected name is refused, named.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from studio.engines.customx.sizes import ModelSize
from studio.engines.customx.text import ClipTextEncoder, LlavaEncoder
from studio.engines.customx.transformer import CustomXTransformer


class WeightsError(ValueError):
    """A state dict that doesn't match the model (the message names the first bad key)."""


@contextmanager
def building(device: torch.device, dtype: torch.dtype) -> Iterator[None]:
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with device:
            yield
    finally:
        torch.set_default_dtype(previous)


def vae_of(size: ModelSize) -> Any:
    from diffusers import AutoencoderKLHunyuanVideo

    v = size.vae
    return AutoencoderKLHunyuanVideo(  # type: ignore[no-untyped-call]
        in_channels=3, out_channels=3, latent_channels=v.latent_channels,
        down_block_types=("HunyuanVideoDownBlock3D",) * len(v.block_out_channels),
        up_block_types=("HunyuanVideoUpBlock3D",) * len(v.block_out_channels),
        block_out_channels=v.block_out_channels, layers_per_block=v.layers_per_block, norm_num_groups=v.norm_groups,
        scaling_factor=v.scaling_factor, spatial_compression_ratio=v.spatial, temporal_compression_ratio=v.temporal)


@dataclass
class Tokenizers:
    llava: Any
    clip: Any

    @property
    def sizes(self) -> tuple[int, int]:
        return len(self.llava), len(self.clip)


def load_tokenizers(folder: Path) -> Tokenizers:
    from transformers import PreTrainedTokenizerFast

    def one(sub: str) -> Any:
        path = folder / sub
        if not (path / "tokenizer.json").is_file():
            raise WeightsError(f"Missing {path / 'tokenizer.json'}.")
        for name in ("tokenizer_config.json", "special_tokens_map.json"):  # else blamed on tokenizer.json
            _check_json_object(path / name)
        try:
            return PreTrainedTokenizerFast.from_pretrained(str(path))
        except Exception as error:  # the tokenizers library raises a bare Exception for a malformed file
            raise WeightsError(f"{path / 'tokenizer.json'} is not a readable tokenizer: {error}.") from None

    return Tokenizers(one("tokenizer"), one("tokenizer_2"))


def _check_json_object(path: Path) -> None:
    """``path``, when there, is a JSON object: transformers failed on one that is not with
    "pop expected at most 1 argument", blamed on tokenizer.json."""
    import json

    if not path.exists():
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise WeightsError(f"{path} can't be read as JSON: {error}.") from None
    if not isinstance(data, dict):
        raise WeightsError(f"{path} is not a JSON object.")


def build(part: str, size: ModelSize, tokenizers: Tokenizers | None = None) -> nn.Module:
    if part == "transformer":
        return CustomXTransformer.of_size(size.transformer)
    if part == "vae":
        return vae_of(size)  # type: ignore[no-any-return]
    assert tokenizers is not None
    if part == "text_encoder":
        return LlavaEncoder(size.text, size.text.vocab or len(tokenizers.llava))
    clip = tokenizers.clip
    return ClipTextEncoder(size.text, size.text.clip_vocab or len(clip), eos=int(clip.eos_token_id),
                           pad=int(clip.pad_token_id if clip.pad_token_id is not None else clip.eos_token_id))


def expected_keys(model: nn.Module) -> set[str]:
    return set(model.state_dict())


def check_keys(model: nn.Module, state: Mapping[str, torch.Tensor], where: str) -> None:
    """Refuse a state dict with a name the model lacks, or lacking one it has, or a wrong shape."""
    own = model.state_dict()
    unexpected = sorted(set(state) - set(own))
    if unexpected:
        raise WeightsError(f"{where}: unexpected tensor {unexpected[0]!r} ({len(unexpected)} in all); "
                           f"the file was not written for this model.")
    missing = sorted(set(own) - set(state))
    if missing:
        raise WeightsError(f"{where}: no tensor for {missing[0]!r} ({len(missing)} missing).")
    for name, tensor in state.items():
        if tuple(tensor.shape) != tuple(own[name].shape):
            raise WeightsError(f"{where}: {name!r} has shape {tuple(tensor.shape)}, the model "
                               f"{tuple(own[name].shape)}.")


def fill(model: nn.Module, path: Path) -> None:
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    if not path.is_file():
        raise WeightsError(f"Missing {path}.")
    try:
        state = load_file(str(path))
    except (SafetensorError, OSError, ValueError) as error:  # cut short by an interrupted copy, or damaged
        raise WeightsError(f"{path} can't be read: {error}.") from None
    check_keys(model, state, str(path))
    model.load_state_dict(state, strict=True)
