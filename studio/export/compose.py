"""The episode's frames, composed in Python: clips resampled to the output size and fps,
dissolves between turns, title and end cards, burned-in captions and the state overlay."""

from __future__ import annotations

import functools
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from studio.core.text import first_few
from studio.export.branch import Branch, Turn
from studio.export.cues import CueKind, TimedCue
from studio.export.drawing import (
    CARD_LINES,
    Patch,
    caption_layout,
    caption_patch,
    caption_top,
    card_layout,
    render_card,
    state_patch,
)
from studio.export.errors import REMAKE_CLIP_HINT, ExportError, as_sentence
from studio.export.memory import prefetch_depth
from studio.export.options import CaptionMode, ExportOptions
from studio.export.prefetch import Prefetcher
from studio.export.subtitles import episode_captions, shortened_captions_note, subtitle_lines
from studio.export.timeline import Timeline, source_frame
from studio.storage.ffmpeg import MediaError, StreamInfo, decode_frames


def resample(frames: Iterator[np.ndarray], source_fps: Fraction, fps: Fraction, count: int) -> Iterator[np.ndarray]:
    """Exactly ``count`` frames at ``fps`` from frames at ``source_fps`` (nearest earlier frame;
    a clip that runs short holds its last frame)."""
    last: np.ndarray | None = None
    source_index = -1
    for out_index in range(count):
        wanted = source_frame(out_index, source_fps, fps)
        while source_index < wanted:
            frame = next(frames, None)
            if frame is None:
                break
            last, source_index = frame, source_index + 1
        if last is None:
            raise ValueError("clip has no frames")
        yield last


def decode_turn(turn: Turn, size: tuple[int, int], source_size: tuple[int, int]) -> Iterator[np.ndarray]:
    """The frames of ``turn``'s clip at ``size`` (see :func:`decode_frames`).

    A clip whose container is whole but whose pictures can't be decoded passes the probe
    (its packets are all there) and fails only here: the error names the turn to re-roll,
    as the probe's does, rather than the take's hidden file alone."""
    decoded = 0
    frames = decode_frames(turn.clip, size, source_size)
    try:
        for frame in frames:
            decoded += 1
            yield frame
    except MediaError as error:
        # "Can't decode PATH: ffmpeg's words": the sentence's start is this message's own
        raise _undecodable(turn, error.message.removeprefix("Can't decode ")) from None
    finally:
        frames.close()  # also when the export stops early: its ffmpeg ends now, not at collection
    if not decoded:
        raise _undecodable(turn, f"{turn.clip} gave no pictures")


def _undecodable(turn: Turn, reason: str) -> ExportError:
    return ExportError(f"The clip of {turn.label} can't be decoded: {as_sentence(reason.rstrip('.'))}",
                       hint=REMAKE_CLIP_HINT, remake=(turn.node_id,))


def blend(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    """``a`` dissolving into ``b``; ``t`` in 0..1 is the share of ``b``."""
    weight = np.uint16(round(t * 256))
    return ((a.astype(np.uint16) * (256 - weight) + b.astype(np.uint16) * weight) >> 8).astype(np.uint8)


Box = tuple[int, int, int, int]
"""A picture's place in the frame: x, y, width, height."""


def picture_box(size: tuple[int, int], source: tuple[int, int]) -> Box:
    """The part of a frame of ``size`` that the overlay and captions keep to, for a clip of
    ``source`` size (scaled to fit and centred between black bars, as
    :func:`~studio.storage.ffmpeg.decode_frames` letterboxes it): between the bars at its sides
    (a 3:2 clip in a 16:9 frame), where a panel or a caption's band drawn across the edge looked
    cut; the frame's whole height, as bars above and below (a landscape clip in a portrait
    frame) leave the panel and the caption room to stand clear of the picture. The whole frame
    for a clip of the frame's shape, or of no known size."""
    width, height = size
    source_w, source_h = source
    if not source_w or not source_h or source_w * height >= source_h * width:  # no side bars
        return 0, 0, width, height
    shown_w = min(width, int(source_w * Fraction(height, source_h)))
    return (width - shown_w) // 2, 0, shown_w, height


def _placed(patch: Patch | None, box: Box) -> Patch | None:
    return None if patch is None else Patch(patch.x + box[0], patch.y + box[1], patch.rgba)


def frame_patches(branch: Branch, timeline: Timeline, size: tuple[int, int],
                  options: ExportOptions, boxes: Sequence[Box] | None = None) -> tuple[np.ndarray, list[list[Patch]]]:
    """What is drawn over each output frame: an index per frame (-1: nothing) into a list
    of patch lists (the state overlay of the turn shown at that frame, and the caption shown
    there, which may be a short turn's that runs on into the next turn's frames). ``boxes``:
    each turn's picture in the frame (:func:`picture_box`); the overlay and the caption keep to
    it, never drawn over the black bars of a clip letterboxed in a frame of another shape."""
    boxes = list(boxes) if boxes is not None else [(0, 0, *size)] * len(branch.turns)
    total = timeline.total_frames
    turn_of = np.full(total, -1, dtype=np.int64)
    for span in timeline.turns:
        turn_of[span.shown_from:span.shown_to] = span.index
    caption_of = np.full(total, -1, dtype=np.int64)
    captions = _burned_captions(branch, timeline, options)
    for number, (timed, _turns, _text) in enumerate(captions):
        caption_of[timed.start:timed.end] = number
    overlays = [_placed(state_patch(box[2:], turn.state, turn.character), box) if options.overlay else None
                for turn, box in zip(branch.turns, boxes, strict=True)]
    owner = np.full(total, -1, dtype=np.int64)
    groups: list[list[Patch]] = []
    shown = (turn_of >= 0) | (caption_of >= 0)
    if not shown.any():
        return owner, groups
    pairs, inverse = np.unique(np.stack([turn_of[shown], caption_of[shown]], axis=1), axis=0, return_inverse=True)
    slots: list[int] = []
    for turn_index, caption_index in pairs.tolist():
        patches: list[Patch] = []
        overlay = overlays[turn_index] if turn_index >= 0 else None
        if overlay is not None:
            patches.append(overlay)
        if caption_index >= 0:
            timed, _turns, text = captions[caption_index]
            turn = branch.turns[turn_index] if turn_index >= 0 else None
            box = boxes[turn_index] if turn_index >= 0 else (0, 0, *size)
            top = caption_top(box[2:], options.overlay, bool(turn.character) if turn is not None else False)
            caption = _placed(caption_patch(box[2:], text, italic=timed.cue.kind is CueKind.NARRATION, top=top,
                                            rtl=timed.cue.reads_rtl), box)
            if caption is not None:
                patches.append(caption)
        slots.append(len(groups) if patches else -1)
        if patches:
            groups.append(patches)
    owner[shown] = np.asarray(slots, dtype=np.int64)[inverse.reshape(-1)]
    return owner, groups


def _burned_captions(branch: Branch, timeline: Timeline,
                     options: ExportOptions) -> list[tuple[TimedCue, tuple[int, ...], str]]:
    """Each burned-in caption with the turns (0-based) whose text it shows and its text, its
    lines apart by line breaks; none unless captions are burned in. The captions are the SRT's
    subtitles, broken into lines as the SRT breaks them (:func:`studio.export.subtitles.subtitle_lines`),
    so a video's captions, its SRT and the OTIO markers show the same text at the same frames."""
    if options.captions != CaptionMode.BURN:
        return []
    burned: list[tuple[TimedCue, tuple[int, ...], str]] = []
    for shown in episode_captions(branch, timeline):
        context = " ".join(cue.shown for cue in shown.block.cues)
        burned.extend((timed, shown.block.turns, "\n".join(subtitle_lines(timed.cue, context)))
                      for timed in shown.subtitles)
    return burned


def cut_captions_note(branch: Branch, timeline: Timeline, size: tuple[int, int], options: ExportOptions,
                      boxes: Sequence[Box] | None = None) -> str:
    """A note naming the turns whose burned caption had no room even in the smallest type
    (its last line ends in an ellipsis; the SRT keeps the whole text), and those whose caption,
    burned in or in the SRT beside the video, had more text than its time shows
    (:func:`studio.export.subtitles.shortened_captions_note`), or ''."""
    timed_note = shortened_captions_note(branch, timeline) if options.captions != CaptionMode.NONE else ""
    room_note = _no_room_note(branch, timeline, size, options, boxes)
    return "; ".join(note for note in (room_note, timed_note) if note)


def _no_room_note(branch: Branch, timeline: Timeline, size: tuple[int, int], options: ExportOptions,
                  boxes: Sequence[Box] | None = None) -> str:
    """The note on burned captions cut for room (see :func:`cut_captions_note`), or '': which
    turns, how much of each caption the frame leaves out, and what shows all of it."""
    cut: dict[tuple[int, ...], CutText] = {}
    for timed, owners, text in _burned_captions(branch, timeline, options):
        over = [span.index for span in timeline.turns if span.shown_from < timed.end and timed.start < span.shown_to]
        room = [boxes[index][2:] if boxes is not None else size for index in over]  # each turn's picture
        shown = [caption_layout(within, text, timed.cue.kind is CueKind.NARRATION,
                                caption_top(within, options.overlay, bool(branch.turns[index].character)),
                                timed.cue.reads_rtl)
                 for index, within in zip(over, room, strict=True)]
        cut_short = [lines for _face, lines, short in shown if short]
        if not cut_short:
            continue
        # a caption can show several short turns' text at once: they are named together
        numbers = tuple(sorted(branch.turns[index].number for index in owners))
        lost = max((CutText.of(text, lines) for lines in cut_short), key=lambda left_out: left_out.amount)
        cut[numbers] = cut.get(numbers, CutText()) + lost
    if not cut:
        return ""
    remedy = (" (to show all of it, shorten {their} text, choose subtitles (--captions srt) instead of burned "
              "captions, or choose a larger --size)")
    if len(cut) == 1:
        ((numbers, lost),) = cut.items()
        which = (f"turn {numbers[0]}'s burned caption" if len(numbers) == 1
                 else f"the burned caption shown for turns {_turn_span(numbers)}")
        return (f"{which} is too long for the frame: {lost.said()} cut, so it ends in '\u2026'"
                + remedy.format(their="its" if len(numbers) == 1 else "their"))
    named = [f"{_turn_span(numbers)} ({lost.said()} cut)" for numbers, lost in sorted(cut.items())]
    # a long branch at a small size cuts them all
    listed = first_few(named, ", ") if len(named) > 8 else f"{', '.join(named[:-1])} and {named[-1]}"
    return (f"the burned captions of turns {listed} are too long for the frame, so each ends in '\u2026'"
            + remedy.format(their="their"))


def _turn_span(numbers: tuple[int, ...]) -> str:
    """Turns a caption shows, for a note: "4", "1 to 4" (a run of turns), "2, 5" (any other)."""
    if numbers and list(numbers) == list(range(numbers[0], numbers[0] + len(numbers))) and len(numbers) > 1:
        return f"{numbers[0]} to {numbers[-1]}"
    return ", ".join(str(number) for number in numbers)


@dataclass(frozen=True)
class CutText:
    """How much of a burned caption the frame left out: whole words, and the characters of
    text written without spaces between its words (Japanese, Chinese)."""

    words: int = 0
    characters: int = 0

    @classmethod
    def of(cls, text: str, lines: tuple[str, ...]) -> CutText:
        """What of ``text`` its ``lines`` (the last ending in "…") leave out."""
        whole = text.split()
        shown = " ".join(lines).removesuffix("\u2026").split()
        if len(whole) > 1 and len(shown) < len(whole):
            return cls(words=len(whole) - len(shown))
        return cls(characters=max(1, len("".join(whole)) - len("".join(shown))))

    @property
    def amount(self) -> int:
        return self.words + self.characters

    def __add__(self, other: CutText) -> CutText:
        return CutText(self.words + other.words, self.characters + other.characters)

    def said(self) -> str:
        """"6 words", "12 characters", "6 words and 12 characters"."""
        parts = [f"{count:,} {unit}{'' if count == 1 else 's'}"
                 for count, unit in ((self.words, "word"), (self.characters, "character")) if count]
        return " and ".join(parts)


def cut_cards_notes(size: tuple[int, int], options: ExportOptions) -> list[str]:
    """A note for each title or end card whose text had no room on the card (its last line
    ends in an ellipsis; subtitle and timeline files keep the whole text)."""
    notes = []
    for text, name, flag in ((options.title, "title card", "--title"), (options.end_card, "end card", "--end-card")):
        if not text.strip():
            continue
        _face, shown, cut = card_layout(size, text)
        if cut:
            lines = ("one line", "two lines", "three lines", "four lines")[len(shown) - 1]
            # a frame too small for the card's four lines holds fewer (see card_layout)
            larger = ", or a larger --size," if len(shown) < CARD_LINES else ""
            notes.append(f"the {name}'s text was too long for its {lines} and ends in '\u2026' "
                         f"(a shorter {flag}{larger} shows all of it)")
    return notes


def episode_frames(branch: Branch, infos: list[StreamInfo], timeline: Timeline, size: tuple[int, int],
                   options: ExportOptions) -> Generator[np.ndarray, None, None]:
    """Every output frame in order (``timeline.total_frames`` of them)."""
    owner, groups = frame_patches(branch, timeline, size, options, [picture_box(size, info.size) for info in infos])

    def decorate(frame: np.ndarray, index: int) -> np.ndarray:
        group = int(owner[index])
        if group >= 0:
            for patch in groups[group]:
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
    sources = [functools.partial(decode_turn, turn, size, info.size)
               for turn, info in zip(branch.turns, infos, strict=True)]
    with Prefetcher(sources, depth=prefetch_depth(size)) as ahead:
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
