"""Our checkpoint layout under ``<checkpoints>/animegamer/`` and the released one it comes from.

::

    animegamer/
      tokenizer/            AnimeGamer's tokenizer (Mistral's + 284 added tokens)
      mistral/model.safetensors     Mistral-7B's frozen linear layers (shared by the characters)
      vae/vae.safetensors           the CogVideoX 3D VAE (shared)
      <character>/mllm.safetensors      LoRA, trained norms, grown embeddings, resamplers
      <character>/decoder.safetensors   the DiT with its LoRA, motion embedding, conditioning
      <character>/model.json            sizes, sources and file sizes; written last

``model.json`` marks a finished conversion: a folder without it is incomplete. The engine
loads only these safetensors. No torch here: the catalogue and the doctor read this.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENGINE = "animegamer"
CHARACTERS: tuple[str, ...] = ("qiqi", "sosuke")
DISPLAY = {"qiqi": "Qiqi", "sosuke": "Sosuke"}

TOKENIZER_FILES = ("tokenizer.model", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json")
BASE_FILE = "mistral/model.safetensors"
VAE_FILE = "vae/vae.safetensors"
MLLM_FILE = "mllm.safetensors"
DECODER_FILE = "decoder.safetensors"
MODEL_FILE = "model.json"

GB = 1000**3


@dataclass(frozen=True, slots=True)
class OurFile:
    """One file of our layout (relative to ``animegamer/``), with its size at the released
    scale in bf16/fp16 when it is a weights file (approximate: the header and the source
    files' dtypes vary)."""

    path: str
    description: str
    approx_bytes: int | None = None
    character: str = ""


def tokenizer_files() -> tuple[OurFile, ...]:
    return tuple(OurFile(f"tokenizer/{name}", "AnimeGamer's tokenizer") for name in TOKENIZER_FILES)


def shared_files() -> tuple[OurFile, ...]:
    return (*tokenizer_files(),
            OurFile(BASE_FILE, "Mistral-7B-Instruct-v0.1's frozen layers", approx_bytes=13_960_000_000),
            OurFile(VAE_FILE, "the CogVideoX 3D VAE", approx_bytes=431_000_000))


def character_files(character: str) -> tuple[OurFile, ...]:
    name = DISPLAY.get(character, character)
    return (OurFile(f"{character}/{MLLM_FILE}", f"{name}'s MLLM: LoRA, norms, embeddings, resamplers",
                    approx_bytes=770_000_000, character=character),
            OurFile(f"{character}/{DECODER_FILE}", f"{name}'s video decoder (CogVideoX-2B + LoRA)",
                    approx_bytes=3_460_000_000, character=character),
            OurFile(f"{character}/{MODEL_FILE}", f"{name}'s conversion record (written last)", character=character))


def all_files() -> tuple[OurFile, ...]:
    return (*shared_files(), *(f for c in CHARACTERS for f in character_files(c)))


def engine_folder(checkpoints: Path) -> Path:
    return checkpoints / ENGINE


def complete_characters(folder: Path) -> list[str]:
    """Characters whose files (and the shared ones) are all present."""
    if not all((folder / f.path).is_file() for f in shared_files()):
        return []
    return [c for c in CHARACTERS if all((folder / f.path).is_file() for f in character_files(c))]


def read_model_json(folder: Path, character: str) -> dict[str, Any]:
    path = folder / character / MODEL_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a JSON object")
    return data


def model_json_problem(folder: Path, character: str) -> str | None:
    """Why ``character``'s model.json can't be used by the engine (None: it can, or it is missing
    or no JSON object, which the file checks report): it must hold the model's dimensions the
    conversion wrote under "size". A model.json of ``{"foo": 1}`` passed `checkpoints doctor`
    ("Ready: Qiqi.") and the load then failed with "can't be read: 'size'". Light: the sizes
    module imports no torch."""
    from studio.engines.animegamer.sizes import ModelSize

    path = folder / character / MODEL_FILE
    try:
        data = read_model_json(folder, character)
    except (OSError, ValueError):
        return None
    if "size" not in data:
        return (f"{path} has no \"size\" entry (the model's dimensions, which the conversion writes): it is not "
                "a conversion record of this studio.")
    if not isinstance(data["size"], dict):
        return f"{path}'s \"size\" entry is {type(data['size']).__name__}, not the model's dimensions."
    try:
        ModelSize.from_json(data["size"])
    except ValueError as error:
        return f"{path}'s \"size\" entry can't be used: {error}."
    return None


# -- the release's layout ---------------------------------------------------------------------
RELEASE_MLLM = "AnimeGamer/MLLM-{name}/pytorch_model.bin"
RELEASE_DECODER_DIR = "AnimeGamer/VDM_Decoder-{name}"
RELEASE_VAE = "vae/3d-vae.pt"
RELEASE_BASE_DIR = "Mistral-7B-Instruct-v0.1"
DEEPSPEED_FILE = "mp_rank_00_model_states.pt"


def release_decoder_file(source: Path, character: str) -> Path | None:
    """``VDM_Decoder-<Char>/<step>/mp_rank_00_model_states.pt``: the step named in ``latest``,
    else the highest numbered folder that has the file."""
    folder = source / RELEASE_DECODER_DIR.format(name=DISPLAY[character])
    latest = folder / "latest"
    if latest.is_file():
        step = latest.read_text(encoding="utf-8").strip()
        candidate = folder / step / DEEPSPEED_FILE
        if candidate.is_file():
            return candidate
    steps = sorted((p for p in folder.glob(f"*/{DEEPSPEED_FILE}") if p.parent.name.isdigit()),
                   key=lambda p: int(p.parent.name))
    return steps[-1] if steps else None


def release_characters(source: Path) -> Iterator[str]:
    for character in CHARACTERS:
        if (source / RELEASE_MLLM.format(name=DISPLAY[character])).is_file():
            yield character
