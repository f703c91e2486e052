"""When each turn's captions show in the episode, so that none of them only flashes by.

A turn's captions show over its own stretch of the episode (from the cut before it to the
cut after it, :mod:`studio.export.timeline`). A very short turn (a duration of 0.3 s, or a
clip of a few frames) gave its caption that much time: too short to read. The captions of
the branch are laid out here together, the same way for burned-in captions, SRT subtitles
and OTIO markers:

* consecutive turns each of at most :data:`SHORT_TURN_SECONDS` share one caption
  (``Qiqi waves. / Yuzu jumps.``) until it lasts :data:`MIN_CAPTION_SECONDS`; a shared
  text longer than two subtitle lines shows as consecutive subtitles of two lines each
  (:func:`studio.export.subtitles.shared_caption`), and wants the minimum for each;
* a caption shorter than the time its text takes to read (and never less than that minimum;
  a turn with several cues or subtitles: that for each) borrows the time it lacks: from turns
  without a caption after it, then from the next caption's spare time (which starts later,
  and may run on into the spare time of the one after it in turn); a caption
  runs on past its turn rather than starting before it, except at the end of the episode,
  where the last caption borrows from a turn without a caption before it, then from the
  caption before it (which ends earlier);
* a caption lends time it does not need itself: beyond the minimum and the time its text
  takes to read (:func:`studio.export.reading.reading_seconds`: 17 characters a second in
  English, 4 in Japanese, 7 in Chinese, 12 in Korean). Only a caption that would still be up
  less than the minimum in all (a turn of several lines: less than the minimum for each
  line, or each subtitle where two short lines share one) takes what it lacks of it from
  its neighbours' reading time too, leaving each of their subtitles the minimum (so none
  of their text is cut for it): a
  subtitle editor holds the minimum duration as the rule and the reading speed as the aim (a
  caption gone in 0.4 s can't be read at all; one of 2 s shown in 1.5 s is read faster);
* captions never overlap and never reach onto the title or end card; a caption with more
  text than its time can show is cut to what it can (:func:`studio.export.subtitles.readable_cues`).

A caption that finds no time to borrow (its neighbours are at the minimum themselves, or the
episode is shorter than the minimum) keeps its turn's; where that is too short for a subtitle
each of its lines, they share subtitles (:func:`studio.export.subtitles.fitted_cues`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from studio.export.cues import Cue, merged
from studio.export.reading import reading_seconds
from studio.export.timeline import TurnSpan

MIN_CAPTION_SECONDS = Fraction(5, 6)
"""The least time a caption stays up where it can borrow it (Netflix's timed-text style
guide: 5/6 s, 20 frames at 24 fps; the least time of an SRT cue, too)."""

SHORT_TURN_SECONDS = Fraction(1, 2)
"""Consecutive turns each this short or shorter share one caption."""


@dataclass(frozen=True)
class CaptionBlock:
    """The cues of one turn, or of a run of short turns merged into one cue, and the output
    frames ``start..end`` (end exclusive) where they show."""

    turns: tuple[int, ...]
    """0-based indices of the turns whose cues it shows, in order."""
    cues: tuple[Cue, ...]
    start: int
    end: int

    @property
    def merged(self) -> bool:
        return len(self.turns) > 1


@dataclass
class _Block:
    turns: list[int]
    cues: list[Cue]
    start: int
    end: int

    @property
    def frames(self) -> int:
        return self.end - self.start


def caption_blocks(cues: Sequence[Sequence[Cue]], spans: Sequence[TurnSpan], fps: Fraction,
                   pieces: Sequence[int] | None = None,
                   shared_pieces: Callable[[Sequence[Cue]], int] | None = None,
                   fewest: Callable[[int], int] | None = None) -> list[CaptionBlock]:
    """Where the captions of each turn show (``cues[i]`` are turn ``i``'s, ``spans[i]`` its
    place in the episode, ``pieces[i]`` how many subtitles its cues take, by default one a
    cue; ``shared_pieces`` how many the caption that short turns share takes, given their
    cues, by default one; ``fewest(i)`` how many subtitles of turn ``i``'s lines must each stay
    up the minimum, whatever its neighbours' reading time: one a line, fewer where its lines
    join two to a subtitle, by default one, asked only of a turn short of time); a turn without
    cues has no block and lends its time."""
    counts = list(pieces) if pieces is not None else [len(turn_cues) for turn_cues in cues]
    least = math.ceil(MIN_CAPTION_SECONDS * fps)
    short = math.floor(SHORT_TURN_SECONDS * fps)
    blocks = _merge_short_runs(cues, spans, short, least)
    if blocks:
        # each subtitle wants the minimum: of a turn's own cues, or of the short turns' shared one
        wants = [least * max(1, counts[block.turns[0]] if len(block.turns) == 1
                             else shared_pieces(block.cues) if shared_pieces is not None else 1)
                 for block in blocks]
        keeps = [max(want, math.ceil(sum((reading_seconds(cue.shown) for cue in block.cues), Fraction(0)) * fps))
                 for want, block in zip(wants, blocks, strict=True)]

        def needs(index: int) -> int:
            """The minimum for each line at most (a shared caption: each of its turns' lines)."""
            block = blocks[index]
            lines = len(block.cues) if len(block.turns) > 1 else fewest(block.turns[0]) if fewest is not None else 1
            return min(wants[index], least * max(1, lines))

        _borrow(blocks, wants, keeps, needs, spans[0].shown_from, spans[-1].shown_to)
    return [CaptionBlock(tuple(block.turns), (merged(block.cues),) if len(block.turns) > 1 else tuple(block.cues),
                         block.start, block.end) for block in blocks]


def _merge_short_runs(cues: Sequence[Sequence[Cue]], spans: Sequence[TurnSpan], short: int,
                      least: int) -> list[_Block]:
    """A block a turn with cues, except that turns of at most ``short`` frames that follow
    one another directly (no turn without a caption between, whose time a caption could use
    instead) share a block until it lasts ``least`` frames."""
    blocks: list[_Block] = []
    previous: int | None = None
    for index, (turn_cues, span) in enumerate(zip(cues, spans, strict=True)):
        if not turn_cues:
            continue
        own = span.shown_to - span.shown_from
        last = blocks[-1] if blocks else None
        first_own = spans[last.turns[0]].shown_to - spans[last.turns[0]].shown_from if last else 0
        if last is not None and previous == index - 1 and own <= short and first_own <= short and last.frames < least:
            last.turns.append(index)
            last.cues.extend(turn_cues)
            last.end = span.shown_to
        else:
            blocks.append(_Block([index], list(turn_cues), span.shown_from, span.shown_to))
        previous = index
    return blocks


def _borrow(blocks: list[_Block], wants: list[int], keeps: list[int], needs: Callable[[int], int], first: int,
            last: int) -> None:
    """Lengthen, in order, each block shorter than ``keeps[k]`` frames (its reading time, never
    less than ``wants[k]``) with time its neighbours can spare (see the module's description):
    their frames beyond their own ``keeps``. Then a block still shorter than ``needs(k)``
    (the minimum for each of its lines, or for each subtitle where two short lines share one)
    takes what it lacks of it from its neighbours' reading time too, down to
    their ``wants``: a subtitle up for the minimum matters more than a neighbour's reading
    speed (a viewer reads a little faster; one gone in 0.4 s is not read at all), as a
    subtitle editor holds the minimum duration as the rule and the reading speed as the aim.
    Blocks stay in order and never overlap."""
    for index in range(len(blocks)):
        _lengthen(blocks, index, keeps[index], keeps, first, last)
    for index in range(len(blocks)):
        if blocks[index].frames < wants[index]:  # needs(k) is never more than wants[k]
            _lengthen(blocks, index, needs(index), wants, first, last)


def _lengthen(blocks: list[_Block], index: int, least: int, floors: list[int], first: int, last: int) -> None:
    """Lengthen block ``index`` towards ``least`` frames: over the time after it that shows no
    caption, then from the next block down to its ``floors`` frames; at the end of the
    episode, over the time before it, then from the block before it likewise."""
    block = blocks[index]
    after = blocks[index + 1] if index + 1 < len(blocks) else None
    before = blocks[index - 1] if index > 0 else None
    free = (after.start if after is not None else last) - block.end
    block.end += min(free, max(0, least - block.frames))
    if after is not None and after.start == block.end:
        spare = min(max(0, least - block.frames), _lendable(blocks, index + 1, floors, last))
        _lend(blocks, index + 1, spare, floors, last)
        block.end += spare
    if after is not None:
        return  # a caption starts before its turn only at the end of the episode
    free = block.start - (before.end if before is not None else first)
    block.start -= min(free, max(0, least - block.frames))
    if before is not None and before.end == block.start:
        spare = min(max(0, least - block.frames), max(0, before.frames - floors[index - 1]))
        block.start -= spare
        before.end -= spare


def _lendable(blocks: list[_Block], index: int, floors: list[int], last: int) -> int:
    """How many frames block ``index`` can give from its start: what it has beyond its
    ``floors`` frames, and what it can make good by running on in turn (over the time after it
    that shows no caption, then into the spare time of the blocks after it, each starting
    later), less what it lacks itself: a caption lends only what it does not need."""
    lendable = 0
    for at in range(len(blocks) - 1, index - 1, -1):
        block = blocks[at]
        gap = (blocks[at + 1].start if at + 1 < len(blocks) else last) - block.end
        lendable = max(0, block.frames - floors[at] + gap + lendable)
    return lendable


def _lend(blocks: list[_Block], index: int, frames: int, floors: list[int], last: int) -> None:
    """Block ``index`` starts ``frames`` later (at most :func:`_lendable`): it gives its own
    spare frames first, and runs on for the rest, over the captionless time after it, then
    into the next block's spare time (which starts later in turn)."""
    while frames > 0 and index < len(blocks):
        block = blocks[index]
        rest = frames - min(frames, max(0, block.frames - floors[index]))
        block.start += frames
        if rest <= 0:
            return
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        gap = (following.start if following is not None else last) - block.end
        block.end += rest
        frames = rest - min(rest, gap)
        index += 1
