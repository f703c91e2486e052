"""The shards of a sharded Hugging Face download (Mistral-7B-Instruct-v0.1's), read from its
index without torch: the converter reads them, and the doctor checks they are all there."""

from __future__ import annotations

import json
import re
from pathlib import Path

INDEXES = ("model.safetensors.index.json", "pytorch_model.bin.index.json")
"""The shard lists of a sharded download, safetensors first (as the converter prefers them)."""


class ShardIndexError(ValueError):
    """An index that can't be read, or that names a file outside its folder."""


def find_index(folder: Path) -> Path | None:
    return next((folder / name for name in INDEXES if (folder / name).is_file()), None)


def read_weight_map(index: Path) -> dict[str, str]:
    """``index``'s ``weight_map`` (tensor name -> shard file name), each shard checked to be a
    plain file name beside the index: ``../x``, an absolute path, ``.`` or ``..`` would read
    outside the download's folder (or a folder), so they are refused, named."""
    try:
        weight_map = json.loads(index.read_text(encoding="utf-8")).get("weight_map")
    except (OSError, ValueError, AttributeError) as error:
        raise ShardIndexError(f"{index} is not a readable shard index: {error}.") from None
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        raise ShardIndexError(f"{index} has no weight_map of file names.")
    for name in sorted(set(weight_map.values())):
        if not _beside_index(name):
            raise ShardIndexError(f"{index} names a shard outside its folder: {name!r} (a shard is a file name "
                                  "beside the index).")
    return weight_map


def _beside_index(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\\" not in name and \
        Path(name).name == name


def indexed_shards(index: Path) -> list[Path]:
    """The files ``index``'s ``weight_map`` names (each once, sorted), present or not."""
    return [index.parent / name for name in sorted(set(read_weight_map(index).values()))]


_NUMBERED = re.compile(r"(.+)-(\d+)-of-(\d+)(\.safetensors|\.bin)")


def missing_numbered_shards(files: list[Path]) -> list[Path]:
    """The shards that ``files`` named ``model-00001-of-00002.safetensors`` (or
    ``pytorch_model-00001-of-00002.bin``) say exist beside them but are not there. Without its
    index, a download that lost a shard was read without it, and the conversion then said only
    "8 base weights are in none of the files read"."""
    missing: set[Path] = set()
    for file in files:
        match = _NUMBERED.fullmatch(file.name)
        if match is None or not 0 < int(match.group(3)) <= 10_000:  # not a shard count
            continue
        stem, digits, total, suffix = match.group(1), len(match.group(2)), match.group(3), match.group(4)
        missing.update(path for i in range(1, int(total) + 1)
                       if not (path := file.parent / f"{stem}-{i:0{digits}d}-of-{total}{suffix}").is_file())
    return sorted(missing)


def missing_shards(folder: Path) -> list[Path]:
    """The shards ``folder``'s index names that are not there (without an index, those that
    the numbered shard names there say are missing; an unreadable index counts as the index
    itself missing)."""
    index = find_index(folder)
    if index is None:
        found = sorted(folder.glob("*.safetensors")) or sorted(folder.glob("pytorch_model*.bin"))
        return missing_numbered_shards(found)
    try:
        return [path for path in indexed_shards(index) if not path.is_file()]
    except ShardIndexError:
        return [index]
