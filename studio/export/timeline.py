"""Where every turn lands in the episode, in output frames.

One plan serves the video, the SRT and the OTIO timeline, so they always agree. Turns
are joined by a dissolve of ``crossfade`` frames: the next clip starts ``crossfade``
frames before the previous one ends. Each dissolve has a *cut point*: ``crossfade // 2``
frames into it. A turn's caption (and its overlay values) show from the cut before it to
the cut after it, so captions never overlap; this is also where the OTIO clips are cut.
Title and end cards are joined with hard cuts.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from studio.export.errors import ExportError


@dataclass(frozen=True)
class TurnSpan:
    """One clip in the output. Frames are output frames from the start of the episode."""

    index: int
    """0-based position in the branch."""
    start: int
    """First frame holding this clip (the start of its fade-in, if any)."""
    frames: int
    """How many output frames the clip covers (the whole clip, fades included)."""
    shown_from: int
    """The cut before it: where its caption starts."""
    shown_to: int
    """The cut after it (exclusive): where its caption ends."""

    @property
    def end(self) -> int:
        return self.start + self.frames

    @property
    def head_trim(self) -> int:
        """Frames of the clip before its caption starts (the second half of the dissolve in)."""
        return self.shown_from - self.start

    @property
    def tail_trim(self) -> int:
        return self.end - self.shown_to


@dataclass(frozen=True)
class Timeline:
    fps: Fraction
    crossfade: int
    title_frames: int
    end_frames: int
    turns: tuple[TurnSpan, ...]

    @property
    def total_frames(self) -> int:
        return self.turns[-1].end + self.end_frames if self.turns else self.title_frames + self.end_frames

    @property
    def duration(self) -> float:
        return self.total_frames / float(self.fps)

    def seconds(self, frame: int) -> float:
        return frame / float(self.fps)

    def turn_at(self, frame: int) -> int | None:
        """Index of the turn whose caption shows at ``frame`` (None on a card)."""
        for span in self.turns:
            if span.shown_from <= frame < span.shown_to:
                return span.index
        return None


def output_frames(source_frames: int, source_fps: Fraction, fps: Fraction) -> int:
    """How many output frames a clip covers when resampled from ``source_fps`` to ``fps``."""
    return max(1, round(Fraction(source_frames) * fps / source_fps))


def source_frame(out_index: int, source_fps: Fraction, fps: Fraction) -> int:
    """The clip's frame (at ``source_fps``) an output frame ``out_index`` frames into it (at
    ``fps``) shows: the nearest earlier one. Past the clip's end, its last frame is held (the
    caller bounds the index by the clip's length)."""
    return int(Fraction(out_index) * source_fps / fps)


def seconds_to_frames(seconds: float, fps: Fraction) -> int:
    return round(Fraction(seconds).limit_denominator(100000) * fps)


def held_frames(seconds: float, fps: Fraction) -> int:
    """Output frames a turn whose duration is set to ``seconds`` lasts: the nearest whole number
    of frames, at least one (0.8 s at 8 fps is 6 frames, so the turn lasts 0.75 s)."""
    return max(1, seconds_to_frames(seconds, fps))


def cut_seconds(seconds: float, fps: Fraction) -> float:
    """The seconds a turn whose duration is set to ``seconds`` really lasts at ``fps``
    (:func:`held_frames`): what a sheet shows, so that it agrees with the cut."""
    return float(Fraction(held_frames(seconds, fps)) / fps)


def plan_timeline(clip_frames: list[int], fps: Fraction, crossfade: float = 0.0,
                  title_seconds: float = 0.0, end_seconds: float = 0.0) -> Timeline:
    """Place clips of ``clip_frames`` output frames each; raises if a dissolve doesn't fit."""
    if not clip_frames:
        raise ExportError("The branch has no turns: there is nothing to export.")
    fade = seconds_to_frames(crossfade, fps) if crossfade > 0 else 0
    if crossfade > 0 and fade == 0:
        fade = 1  # asked for a dissolve: give it at least one frame
    count = len(clip_frames)
    sides = [(index > 0) + (index < count - 1) for index in range(count)]
    if any(fade * side > frames for side, frames in zip(sides, clip_frames, strict=True)):
        # the turn with the least room for a dissolve sets the longest one that fits (whole frames)
        short = min((i for i in range(count) if sides[i]), key=lambda i: clip_frames[i] // sides[i])
        room = clip_frames[short] // sides[short]
        length = f"turn {short + 1} lasts {clip_frames[short] / float(fps):.2f} s ({clip_frames[short]} " \
                 f"frame{'s' if clip_frames[short] != 1 else ''} at {float(fps):g} fps)"
        if room == 0:
            raise ExportError(f"No crossfade fits: {length}.",
                              hint="Export without a crossfade, or make that turn longer.")
        raise ExportError(f"A crossfade of {crossfade:g} s is too long: {length}.",
                          hint=f"Use at most {room / float(fps):.2f} s.")
    # a card that was asked for shows for at least one frame, however short its duration
    title = max(1, seconds_to_frames(title_seconds, fps)) if title_seconds > 0 else 0
    end = max(1, seconds_to_frames(end_seconds, fps)) if end_seconds > 0 else 0
    starts = [title]
    for frames in clip_frames[:-1]:
        starts.append(starts[-1] + frames - fade)
    cuts = [title, *_cut_points(title, starts[1:], fade), starts[-1] + clip_frames[-1]]
    spans = tuple(TurnSpan(index, start, frames, cuts[index], cuts[index + 1])
                  for index, (start, frames) in enumerate(zip(starts, clip_frames, strict=True)))
    return Timeline(fps=fps, crossfade=fade, title_frames=title, end_frames=end, turns=spans)


def _cut_points(first: int, dissolve_starts: list[int], fade: int) -> list[int]:
    """The cut of each dissolve (starting at ``dissolve_starts``, ``fade`` frames long; the
    first turn starts at ``first``):
    ``fade // 2`` frames into it, or later where the turn before it would otherwise show for
    no frame. A first turn of one frame joined by a one-frame dissolve had its cut at its
    start, so it lasted 0 frames between its cuts: a caption of no time, and a timeline clip
    of 0 frames, which editors refuse. A cut never leaves its dissolve, so the video is the
    same; only where a turn's caption starts and ends moves. The first turn alone can need it
    (a turn in the middle holds two dissolves, so at least ``fade`` frames lie between its
    cuts); the last turn shows for no frame only where the episode has fewer frames than turns
    (two one-frame turns joined by a one-frame dissolve are one frame)."""
    cuts: list[int] = []
    previous = first
    for start in dissolve_starts:
        previous = min(max(start + fade // 2, previous + 1), start + fade)
        cuts.append(previous)
    return cuts
