"""Where the released CustomX (AniX) files lie under a download folder, for
``kamishibai checkpoints doctor --engine customx --source DIR``.

The release is five downloads that ``convert-customx`` takes one option each; people unpack
them under one folder in layouts of their own (``ckpts/``, ``models/``, a Hugging Face
snapshot). So this looks them up by their released names, a few folders deep, and says which
option each one fills. Names and paths only: no weights read, no torch.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

MAX_DEPTH = 5
"""Folders below the source that are searched (``ckpts/hunyuancustom/vae/`` is 3 deep)."""
MAX_FOLDERS = 20_000
"""Stop the walk after this many folders (a home directory given by mistake)."""


@dataclass(frozen=True, slots=True)
class ReleasePart:
    option: str
    """convert-customx's option for this part."""
    description: str
    wanted: str
    """What it is called in the release, shown when it is missing."""
    required: bool


@dataclass(frozen=True, slots=True)
class FoundPart:
    part: ReleasePart
    path: Path | None
    problem: str | None = None
    """Why the found folder won't convert as it is (a shard its index names is missing), or None."""


PARTS = (
    ReleasePart("--transformer", "HunyuanCustom's transformer",
                "hunyuancustom_editing_720P/mp_rank_00_model_states.pt", True),
    ReleasePart("--lora", "the CustomX LoRA", "pytorch_lora_kohaya_weights.safetensors", False),
    ReleasePart("--vae", "the HunyuanVideo VAE", "vae/pytorch_model.pt (or a .safetensors file in vae/)", True),
    ReleasePart("--llava", "LLaVA-Llama-3 (the text encoder)", "llava-llama-3-8b-v1_1-transformers/", True),
    ReleasePart("--clip", "CLIP-L (the second text encoder)", "clip-vit-large-patch14/", True),
)


def _walk(source: Path) -> list[tuple[Path, list[str], list[str]]]:
    """Folders under ``source`` (sorted, so the first match is stable), at most MAX_DEPTH deep."""
    found: list[tuple[Path, list[str], list[str]]] = []
    base_depth = len(source.parts)
    for root, dirs, files in os.walk(source, followlinks=True):
        here = Path(root)
        dirs.sort()
        if len(here.parts) - base_depth >= MAX_DEPTH:
            dirs.clear()
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found.append((here, list(dirs), sorted(files)))
        if len(found) >= MAX_FOLDERS:
            break
    return found


def _match(option: str, folder: Path, dirs: list[str], files: list[str]) -> Path | None:
    if option == "--transformer" and "mp_rank_00_model_states.pt" in files:
        return folder / "mp_rank_00_model_states.pt"
    if option == "--lora" and "pytorch_lora_kohaya_weights.safetensors" in files:
        return folder / "pytorch_lora_kohaya_weights.safetensors"
    if option == "--vae" and folder.name == "vae":
        for name in ("pytorch_model.pt", *(f for f in files if f.endswith(".safetensors"))):
            if name in files:
                return folder / name
    if option in ("--llava", "--clip"):
        prefix = "llava-llama-3" if option == "--llava" else "clip-vit-large-patch14"
        if folder.name.lower().startswith(prefix) and "tokenizer.json" in files:
            return folder
    return None


def find_release(source: Path) -> tuple[FoundPart, ...]:
    """Each part's first match under ``source`` (None: not found). Raises ``NotADirectoryError``
    when ``source`` is not a folder."""
    if not source.is_dir():
        raise NotADirectoryError(str(source))
    folders = _walk(source)
    found: list[FoundPart] = []
    for part in PARTS:
        path = None
        for folder, dirs, files in folders:
            path = _match(part.option, folder, dirs, files)
            if path is not None:
                break
        problem = folder_problem(part.option, path) if path is not None and path.is_dir() else None
        found.append(FoundPart(part, path, problem))
    return tuple(found)


SAFETENSORS_INDEX = "model.safetensors.index.json"


def folder_problem(option: str, folder: Path) -> str | None:
    """Why the folder found for ``option`` won't convert: its config.json describes another
    model than the released one, or a shard it names is missing (None when neither)."""
    from studio.engines.customx.hf_config import config_problem
    from studio.engines.customx.sizes import RELEASED

    return config_problem(option, folder, RELEASED.text) or shard_problem(folder)


def shard_problem(folder: Path) -> str | None:
    """What is wrong with ``folder``'s shard index (unreadable, a shard outside the folder, or
    shards it names that are not there), or None. QA: a text encoder folder with a shard
    missing was listed as found and given a convert command, which then failed."""
    from studio.engines.animegamer.shards import ShardIndexError, indexed_shards

    index = folder / SAFETENSORS_INDEX
    if not index.is_file():
        return None
    try:
        missing = [path.name for path in indexed_shards(index) if not path.is_file()]
    except ShardIndexError as error:
        return str(error)
    if missing:
        return f"{index} names {len(missing)} shard(s) that are not there: {', '.join(missing)}"
    return None


def convert_command(found: tuple[FoundPart, ...]) -> list[str] | None:
    """The ``convert-customx`` command line for what was found, or None when a required part is
    missing or a found one won't convert."""
    if any(item.path is None and item.part.required for item in found) or any(item.problem for item in found):
        return None
    line = ["kamishibai", "checkpoints", "convert-customx"]
    for item in found:
        if item.path is not None:
            line += [item.part.option, str(item.path)]
    return line
