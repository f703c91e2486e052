"""Finding an engine's weights on disk, offline: the checkpoints folders, then the user's
Hugging Face cache.

Weights a user already downloaded with ``huggingface-cli download`` or any transformers /
diffusers program sit in the Hugging Face hub cache; the studio uses them in place rather
than asking for a second copy. The lookup reads the cache's documented layout and never
touches the network or imports ``huggingface_hub``::

    <cache>/models--ORG--NAME/refs/main                 the commit that "main" points to
    <cache>/models--ORG--NAME/snapshots/COMMIT/FILE     symlinks into ../../blobs/
    <cache>/models--ORG--NAME/blobs/SHA[.incomplete]    file contents (.incomplete: cut short)

A folder counts only when every ``required`` pattern matches a readable file (a snapshot
whose download was interrupted has dangling symlinks and does not count). Every place
looked at is reported, so an engine can say exactly why it found nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_REQUIRED = ("**/*.safetensors",)
_COMMIT = re.compile(r"[0-9a-f]{40}")
_REPO_PREFIX = {"model": "models", "dataset": "datasets", "space": "spaces"}


def hf_hub_cache(env: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """The hub cache folder, resolved as huggingface_hub does: ``HF_HUB_CACHE``, then the
    older ``HUGGINGFACE_HUB_CACHE``, then ``HF_HOME/hub``, where ``HF_HOME`` defaults to
    ``$XDG_CACHE_HOME/huggingface`` (``~/.cache/huggingface``)."""
    env = os.environ if env is None else env
    home = home or Path.home()

    def expand(value: str) -> Path:
        return Path(os.path.expanduser(os.path.expandvars(value)))

    for key in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if env.get(key):
            return expand(env[key])
    if env.get("HF_HOME"):
        return expand(env["HF_HOME"]) / "hub"
    xdg = expand(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else home / ".cache"
    return xdg / "huggingface" / "hub"


def repo_folder(cache: Path, repo_id: str, repo_type: str = "model") -> Path:
    """``models--ORG--NAME`` for ``ORG/NAME``."""
    if repo_type not in _REPO_PREFIX:
        raise ValueError(f"repo_type must be one of {', '.join(_REPO_PREFIX)}, not {repo_type!r}")
    return cache / "--".join([_REPO_PREFIX[repo_type], *repo_id.split("/")])


def missing_files(folder: Path, required: Sequence[str]) -> list[str]:
    """The ``required`` glob patterns that match no readable file in ``folder``."""
    absent = []
    for pattern in required:
        if not any(path.is_file() for path in folder.glob(pattern)):  # is_file follows symlinks: dangling = absent
            absent.append(pattern)
    return absent


@dataclass(frozen=True)
class WeightsLocation:
    path: Path
    source: str  # "checkpoints" or "huggingface"
    revision: str = ""  # the snapshot's commit, for the Hugging Face cache


@dataclass(frozen=True)
class WeightsSearch:
    """The first complete folder found (or None), and what was seen at each place looked at."""

    found: WeightsLocation | None
    looked: tuple[str, ...] = field(default=())

    def explain(self) -> str:
        return "; ".join(self.looked)


def hf_snapshot(cache: Path, repo_id: str, revision: str = "main", repo_type: str = "model",
                required: Sequence[str] = DEFAULT_REQUIRED) -> tuple[Path | None, str]:
    """The snapshot folder of ``repo_id`` at ``revision`` in ``cache`` if it holds the
    ``required`` files, and a sentence about what was found.

    ``revision`` is a branch or tag (read from ``refs/``) or a 40-digit commit. When the
    ref is missing (files copied by hand, or a cache pruned of refs) and exactly one
    snapshot exists, that snapshot is used: offline, it is the only candidate there is.
    """
    folder = repo_folder(cache, repo_id, repo_type)
    where = f"Hugging Face cache {folder}"
    if not folder.is_dir():
        return None, f"{where}: not downloaded"
    snapshots = folder / "snapshots"
    commit = ""
    if _COMMIT.fullmatch(revision):
        commit = revision
    else:
        ref = folder / "refs" / revision
        try:
            commit = ref.read_text(encoding="utf-8").strip()
        except OSError:
            candidates = sorted(p.name for p in snapshots.iterdir() if p.is_dir()) if snapshots.is_dir() else []
            if len(candidates) != 1:
                return None, (f"{where}: no ref {revision!r} and "
                              f"{'no snapshot' if not candidates else f'{len(candidates)} snapshots to choose from'}")
            commit = candidates[0]
    snapshot = snapshots / commit
    if not snapshot.is_dir():
        return None, f"{where}: {revision} points to {commit[:12]}, which is not downloaded"
    absent = missing_files(snapshot, required)
    if absent:
        return None, f"{where}: snapshot {commit[:12]} lacks {', '.join(absent)} (an interrupted download?)"
    return snapshot, f"{where}: snapshot {commit[:12]}"


def find_weights(name: str, checkpoint_dirs: Sequence[Path], *, repo_id: str | None = None,
                 revision: str = "main", hf_cache: Path | None = None,
                 required: Sequence[str] = DEFAULT_REQUIRED) -> WeightsSearch:
    """Look for ``name``'s weights: ``DIR/name`` in each checkpoints folder, in order, then
    (for Hugging Face-format weights, ``repo_id`` given and ``hf_cache`` not None) the
    snapshot of ``repo_id`` in the Hugging Face cache."""
    looked: list[str] = []
    for base in checkpoint_dirs:
        folder = Path(base) / name
        if not folder.is_dir():
            looked.append(f"{folder}: no such folder")
            continue
        absent = missing_files(folder, required)
        if absent:
            looked.append(f"{folder}: no {', '.join(absent)}")
            continue
        looked.append(f"{folder}: found")
        return WeightsSearch(WeightsLocation(folder, "checkpoints"), tuple(looked))
    if repo_id and hf_cache is not None:
        snapshot, said = hf_snapshot(hf_cache, repo_id, revision, required=required)
        looked.append(said)
        if snapshot is not None:
            return WeightsSearch(WeightsLocation(snapshot, "huggingface", snapshot.name), tuple(looked))
    return WeightsSearch(None, tuple(looked))
