"""Episodes made in parallel and gathered into tensors for training and evaluation.

Worker processes play the sketch world (``data.EpisodeMaker``); the parent copies each
chunk of clips into one uint8 tensor as it arrives, so a 30k-clip set never needs two
copies in memory. Create the pool before CUDA is touched (it forks).
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from studio.engines.mini.config import DataConfig, VideoSpec, from_dict, to_dict
from studio.engines.mini.data import Episode, EpisodeMaker, Split, Turn

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


def gather(episodes: Iterator[Episode], count: int, turns: int, video: VideoSpec, device: torch.device,
           *, rendered: bool, alt: bool = False, log: Callable[[str], None] | None = None) -> ClipSet:
    """Collect ``count`` episodes into a :class:`ClipSet` (clips straight onto ``device``)."""
    table = TurnTable()
    shape = (count * turns, video.frames, video.height, video.width, 3) if rendered else (0, 1, 1, 1, 3)
    clips = torch.empty(shape, dtype=torch.uint8, device=device)
    alt_clips = torch.empty(shape, dtype=torch.uint8, device=device) if alt else None
    row = 0
    for e, episode in enumerate(episodes):
        for position, turn in enumerate(episode.turns):
            table.turns.append(turn)
            table.episode.append(e)
            table.position.append(position)
            table.clip.append(row if rendered else -1)
            if rendered:
                clips[row] = torch.from_numpy(episode.clips[position]).to(device, non_blocking=False)
                if alt_clips is not None:
                    alt_clips[row] = torch.from_numpy(episode.alt_clips[position]).to(device)
                row += 1
        if log is not None and (e + 1) % 500 == 0:
            log(f"{e + 1}/{count} episodes")
    if rendered:
        clips = clips[:row]
        alt_clips = alt_clips[:row] if alt_clips is not None else None
    return ClipSet(table, clips, alt_clips)


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
