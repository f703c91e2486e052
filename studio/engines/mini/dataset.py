"""Episodes made in parallel and gathered into tensors for training and evaluation.

Worker processes play the sketch world (``data.EpisodeMaker``); the parent copies each
chunk of clips into one uint8 tensor as it arrives, so a 30k-clip set never needs two
copies in memory. Create the pool before CUDA is touched (it forks).
"""

from __future__ import annotations

import gzip
import json
import multiprocessing as mp
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from studio.engines.mini.config import DataConfig, VideoSpec, from_dict, to_dict
from studio.engines.mini.data import DATA_VERSION, Episode, EpisodeMaker, Split, Turn

CHUNK = 4


@dataclass
class TurnTable:
    """Every turn of a set of episodes, flat, with where its episode and clip are."""

    turns: list[Turn] = field(default_factory=list)
    episode: list[int] = field(default_factory=list)
    position: list[int] = field(default_factory=list)
    """Index of the turn within its episode."""
    clip: list[int] = field(default_factory=list)
    """Row of the turn's clip in the clip tensor (-1: not rendered)."""

    def __len__(self) -> int:
        return len(self.turns)

    def history(self, index: int, window: int) -> list[int]:
        """Indices of the up to ``window`` turns before ``index`` in its episode."""
        start = index - self.position[index]
        return list(range(max(start, index - window), index))


def _make_chunk(args: tuple[dict[str, Any], dict[str, Any], str, list[int], bool, bool]
                ) -> list[tuple[Episode, int]]:
    data, video, split, indices, render, alt = args
    maker = EpisodeMaker(from_dict(DataConfig, data), from_dict(VideoSpec, video))
    out = []
    for index in indices:
        episode = maker.make(Split(split), index, render=render, alt=alt)
        for turn in episode.turns:
            turn.conditioning = {}
        out.append((episode, maker.rejected))
    return out


class EpisodePool:
    """A pool of worker processes that play episodes (or the current process when one)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers if workers > 0 else (os.cpu_count() or 1)
        self._pool = mp.get_context("fork").Pool(self.workers) if self.workers > 1 else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def episodes(self, data: DataConfig, video: VideoSpec, split: Split, indices: Sequence[int], *,
                 render: bool, alt: bool = False) -> Iterator[Episode]:
        chunks = [list(indices[i:i + CHUNK]) for i in range(0, len(indices), CHUNK)]
        jobs = [(to_dict(data), to_dict(video), split.value, chunk, render, alt) for chunk in chunks]
        results = self._pool.imap(_make_chunk, jobs) if self._pool is not None else map(_make_chunk, jobs)
        for result in results:
            for episode, _rejected in result:
                yield episode


@dataclass
class ClipSet:
    """Rendered turns: their table and their clips (uint8, N x T x H x W x 3)."""

    table: TurnTable
    clips: torch.Tensor
    alt: torch.Tensor | None = None


class ClipFiller:
    """Fills a :class:`ClipSet` episode by episode (also from a background thread: ``rows``
    says how many clips are in place)."""

    def __init__(self, capacity: int, video: VideoSpec, device: torch.device, *, rendered: bool,
                 alt: bool = False, on_turn: Callable[[int, Turn], None] | None = None) -> None:
        shape = (capacity, video.frames, video.height, video.width, 3) if rendered else (0, 1, 1, 1, 3)
        self.table = TurnTable()
        self.clips = torch.empty(shape, dtype=torch.uint8, device=device)
        self.alt = torch.empty(shape, dtype=torch.uint8, device=device) if alt else None
        self.rendered = rendered
        self.on_turn = on_turn
        self.rows = 0
        self.episodes = 0

    def add(self, episode: Episode) -> None:
        for position, turn in enumerate(episode.turns):
            row = self.rows if self.rendered else -1
            if self.rendered:
                self.clips[row] = torch.from_numpy(episode.clips[position]).to(self.clips.device)
                if self.alt is not None:
                    self.alt[row] = torch.from_numpy(episode.alt_clips[position]).to(self.alt.device)
            if self.on_turn is not None:
                self.on_turn(row, turn)
            self.table.turns.append(turn)
            self.table.episode.append(self.episodes)
            self.table.position.append(position)
            self.table.clip.append(row)
            if self.rendered:
                self.rows += 1
        self.episodes += 1

    def result(self) -> ClipSet:
        alt = self.alt[:self.rows] if self.alt is not None else None
        return ClipSet(self.table, self.clips[:self.rows] if self.rendered else self.clips, alt)


def gather(episodes: Iterator[Episode], count: int, turns: int, video: VideoSpec, device: torch.device,
           *, rendered: bool, alt: bool = False, log: Callable[[str], None] | None = None) -> ClipSet:
    """Collect ``count`` episodes into a :class:`ClipSet` (clips straight onto ``device``)."""
    filler = ClipFiller(count * turns, video, device, rendered=rendered, alt=alt)
    for episode in episodes:
        filler.add(episode)
        if log is not None and filler.episodes % 1000 == 0:
            log(f"{filler.episodes}/{count} episodes")
    return filler.result()


def cache_key(data: DataConfig, video: VideoSpec, split: Split, start: int, count: int) -> str:
    """A name for a set of unrendered episodes that changes with anything that shapes them."""
    import hashlib

    text = json.dumps([DATA_VERSION, to_dict(data) | {"workers": 0}, to_dict(video), split.value, start, count],
                      sort_keys=True)
    return f"{split.value}-{start}-{count}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def write_text_cache(path: Path, clipset: ClipSet) -> None:
    """Unrendered episodes as gzipped JSON lines (one episode a line)."""
    table = clipset.table
    by_episode: dict[int, list[dict[str, Any]]] = {}
    for turn, episode in zip(table.turns, table.episode, strict=True):
        by_episode.setdefault(episode, []).append(turn.to_json())
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for episode in sorted(by_episode):
            handle.write(json.dumps(by_episode[episode]) + "\n")


def read_text_cache(path: Path) -> ClipSet:
    table = TurnTable()
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for e, line in enumerate(handle):
            for position, data in enumerate(json.loads(line)):
                table.turns.append(Turn.from_json(data))
                table.episode.append(e)
                table.position.append(position)
                table.clip.append(-1)
    return ClipSet(table, torch.empty((0, 1, 1, 1, 3), dtype=torch.uint8))


def to_float(clips: torch.Tensor) -> torch.Tensor:
    """uint8 (B, T, H, W, 3) -> float (B, 3, T, H, W) in [-1, 1]."""
    return clips.permute(0, 4, 1, 2, 3).float().div(127.5).sub(1.0)


def text_tensor(texts: Sequence[str], encode: Callable[[str, int], list[int]], limit: int, pad: int
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """Token ids (N, limit) and their validity mask, for the encoder's action texts."""
    ids = np.full((len(texts), limit), pad, dtype=np.int64)
    valid = np.zeros((len(texts), limit), dtype=bool)
    for i, text in enumerate(texts):
        tokens = encode(text, limit) or [pad]
        ids[i, :len(tokens)] = tokens
        valid[i, :len(tokens)] = True
    return torch.from_numpy(ids), torch.from_numpy(valid)
