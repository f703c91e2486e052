"""The episode's frames, composed in Python: clips resampled to the output size and fps,
dissolves between turns, title and end cards, burned-in captions and the state overlay."""

from __future__ import annotations

import functools
from collections.abc import Generator, Iterator
from fractions import Fraction

import numpy as np

from studio.export.branch import Branch
from studio.export.drawing import Patch, caption_patch, render_card, state_patch
from studio.export.ffmpeg import decode_frames
from studio.export.options import CaptionMode, ExportOptions
from studio.export.prefetch import Prefetcher
from studio.export.probe import StreamInfo
from studio.export.timeline import Timeline


def resample(frames: Iterator[np.ndarray], source_fps: Fraction, fps: Fraction, count: int) -> Iterator[np.ndarray]:
    """Exactly ``count`` frames at ``fps`` from frames at ``source_fps`` (nearest earlier frame;
    a clip that runs short holds its last frame)."""
    last: np.ndarray | None = None
    source_index = -1
    for out_index in range(count):
        wanted = int(Fraction(out_index) * source_fps / fps)
        while source_index < wanted:
            frame = next(frames, None)
            if frame is None:
                break
            last, source_index = frame, source_index + 1
        if last is None:
            raise ValueError("clip has no frames")
        yield last


def blend(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """``a`` dissolving into ``b``; ``t`` in 0..1 is the share of ``b``."""
    weight = np.uint16(round(t * 256))
    return ((a.astype(np.uint16) * (256 - weight) + b.astype(np.uint16) * weight) >> 8).astype(np.uint8)


def turn_patches(branch: Branch, size: tuple[int, int], options: ExportOptions) -> list[list[Patch]]:
    patches: list[list[Patch]] = []
    for turn in branch.turns:
        own: list[Patch] = []
        if options.overlay:
            own.append(state_patch(size, turn.state))
        if options.captions == CaptionMode.BURN:
            caption = caption_patch(size, turn.instruction)
            if caption is not None:
                own.append(caption)
        patches.append(own)
    return patches


def episode_frames(branch: Branch, infos: list[StreamInfo], timeline: Timeline, size: tuple[int, int],
                   options: ExportOptions) -> Generator[np.ndarray, None, None]:
    """Every output frame in order (``timeline.total_frames`` of them)."""
    total = timeline.total_frames
    owner = np.full(total, -1, dtype=np.int64)
    for span in timeline.turns:
        owner[span.shown_from:span.shown_to] = span.index
    patches = turn_patches(branch, size, options)

    def decorate(frame: np.ndarray, index: int) -> np.ndarray:
        turn = int(owner[index])
        if turn >= 0:
            for patch in patches[turn]:
                frame = patch.apply(frame)
        return frame

    if timeline.title_frames:
        card = render_card(size, options.title)
        for _ in range(timeline.title_frames):
            yield card
    index = timeline.title_frames
    fade = timeline.crossfade
    held: list[np.ndarray] = []
    last = len(timeline.turns) - 1
    sources = [functools.partial(decode_frames, turn.clip, size, info.size)
               for turn, info in zip(branch.turns, infos, strict=True)]
    with Prefetcher(sources) as ahead:
        for span, info in zip(timeline.turns, infos, strict=True):
            clip = ahead.clip()
            frames = resample(clip, info.fps, timeline.fps, span.frames)
            for step, previous in enumerate(held):
                yield decorate(blend(previous, next(frames), (step + 1) / (fade + 1)), index)
                index += 1
            keep = fade if span.index < last else 0
            for _ in range(span.frames - len(held) - keep):
                yield decorate(next(frames), index)
                index += 1
            held = [next(frames) for _ in range(keep)]
            for _ in clip:  # frames past the clip's planned length (none, normally)
                pass
    if timeline.end_frames:
        card = render_card(size, options.end_card)
        for _ in range(timeline.end_frames):
            yield card
