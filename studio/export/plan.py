"""Reading the clips of a branch and planning the episode: output size, fps and timeline."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled
from studio.core.text import first_few
from studio.export.branch import Branch, Turn, clip_source, indexed_clip_length
from studio.export.errors import (
    REMAKE_CLIP_HINT,
    ClipPermissionError,
    ExportError,
    as_sentence,
    clip_permission_error,
    permission_hint,
)
from studio.export.options import ExportOptions
from studio.export.timeline import Timeline, held_frames, output_frames, plan_timeline
from studio.storage.ffmpeg import MediaError, StreamInfo, exact_fps, probe

PROBE_WORKERS = 4
"""Each probe is a short ffmpeg run, mostly waiting on the disk."""


MAX_REMEMBERED = 20_000
"""Clips whose probe a process remembers (a few hundred bytes each)."""

_probes: dict[tuple[int, int, int, int], StreamInfo] = {}
_probes_lock = threading.Lock()


@dataclass(frozen=True)
class EpisodePlan:
    infos: list[StreamInfo]
    """Each turn's clip. In a plan of lengths only (:func:`plan_episode`), a clip read from its
    index holds its frames and rate alone (no codec details, size 0x0): all the SRT and the
    OTIO timeline read."""
    size: tuple[int, int]
    fps: Fraction
    timeline: Timeline


def _probe_turn(turn: Turn) -> StreamInfo | ExportError:
    """The clip's stream, or the error saying why it can't be read (returned, not raised, so
    that every unreadable clip of the branch is known before the first is reported).

    The clip is opened as the export reads it later (:func:`~studio.export.branch.clip_source`:
    one folder at a time from the project folder, following no link) and ffmpeg is handed the
    opened file: a clip swapped for a link to a file outside the project since the branch was
    read is refused, never probed."""
    denied = clip_permission_error(turn.clip, turn.label, turn.media_root, turn.clip_rel)
    if denied is not None:
        return denied
    try:
        with clip_source(turn) as source:
            return _probed(turn, source)
    except ExportError as error:  # gone, no longer a file, or a link leading outside the project
        return error
    except OSError as error:  # a private copy of the clip (where the system names no descriptor) failed
        return ExportError(f"The clip of {turn.label} can't be read: {as_sentence(error.strerror or str(error))}",
                           hint=REMAKE_CLIP_HINT, remake=(turn.node_id,))


def _file_key(source: Path) -> tuple[int, int, int, int] | None:
    """What tells one state of a file from another: (device, inode, size, modification time in
    ns); None where it can't be read."""
    try:
        found = os.stat(source)
    except OSError:
        return None
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns


def remembered_probe(source: Path) -> StreamInfo:
    """``probe(source)``, run once for each state of the file: a clip read again unchanged
    (same file, size and modification time) is not probed again. A probe of a file that
    changed while it ran is not remembered. An export of a long branch spent most of its time
    probing clips that an export a moment before had probed already."""
    key = _file_key(source)
    if key is not None:
        with _probes_lock:
            known = _probes.get(key)
        if known is not None:
            return known
    info = probe(source)
    if key is not None and _file_key(source) == key:
        with _probes_lock:
            if len(_probes) >= MAX_REMEMBERED:
                _probes.clear()
            _probes[key] = info
    return info


def _probed(turn: Turn, source: Path) -> StreamInfo | ExportError:
    """``probe`` of the clip read as ``source``, its message naming the clip's own path."""
    try:
        return remembered_probe(source)
    except MediaError as error:
        message = error.message.replace(str(source), str(turn.clip))  # a descriptor's name means nothing to a user
        return ExportError(f"The clip of {turn.label} can't be read: {as_sentence(message)}",
                           hint=REMAKE_CLIP_HINT, remake=(turn.node_id,))


def probe_clips(turns: list[Turn]) -> list[StreamInfo | ExportError]:
    """Each turn's clip probed as the export reads it (:func:`_probe_turn`), a few at once: the
    stream, or the error saying why it can't be read."""
    if not turns:
        return []
    with ThreadPoolExecutor(max_workers=min(PROBE_WORKERS, len(turns))) as pool:
        return list(pool.map(_probe_turn, turns))


UNREADABLE_CLIPS_HINT = ("Re-roll the turns whose clips can't be read (or put back the project's media files if "
                         "they were damaged in a copy), then export again.")


def _unreadable(branch: Branch, probed: list[StreamInfo | ExportError]) -> ExportError | None:
    """The first unreadable clip's error, saying which later turns' clips can't be read either
    (None when every clip can be read): the export used to stop at the first, so a branch
    whose media files were damaged in a copy took a try per turn to learn which to re-roll."""
    bad = [(turn, found) for turn, found in zip(branch.turns, probed, strict=True) if isinstance(found, ExportError)]
    if not bad:
        return None
    denied = [(turn, found) for turn, found in bad if isinstance(found, ClipPermissionError)]
    if denied:  # said first: the clips that can't be read for another reason are known once these can be
        return _denied(denied)
    first = bad[0][1]
    if len(bad) == 1:
        return first
    later = [str(turn.number) for turn, _error in bad[1:]]
    many = len(later) > 1
    return ExportError(f"{first.message.rstrip('.')}; the clip{'s' if many else ''} of later turn{'s' if many else ''} "
                       f"{first_few(later, ', ')} can't be read either.", hint=UNREADABLE_CLIPS_HINT,
                       remake=tuple(turn.node_id for turn, _error in bad))


def _denied(denied: list[tuple[Turn, ClipPermissionError]]) -> ExportError:
    """The error of the clips that this user may not read, the first one named."""
    first = denied[0][1]
    if len(denied) == 1:
        return first
    later = [str(turn.number) for turn, _error in denied[1:]]
    many = len(later) > 1
    return ClipPermissionError(
        f"{first.message.rstrip('.')}; nor the clip{'s' if many else ''} of later turn{'s' if many else ''} "
        f"{first_few(later, ', ')}.", hint=permission_hint([turn.clip for turn, _error in denied]))


def turn_frames(turn: Turn, info: StreamInfo, fps: Fraction) -> int:
    """Output frames of a turn: its duration when set (the clip is held on its last frame
    or trimmed to it), else its clip's own length."""
    if turn.duration is not None:
        return held_frames(turn.duration, fps)
    return output_frames(info.frames, info.fps, fps)


def retimed_turns(branch: Branch, plan: EpisodePlan) -> list[int]:
    """Numbers of the turns whose duration holds or trims their clip."""
    return [turn.number for turn, span, info in zip(branch.turns, plan.timeline.turns, plan.infos, strict=True)
            if span.frames != output_frames(info.frames, info.fps, plan.fps)]


def indexed_info(turn: Turn) -> StreamInfo | None:
    """``turn``'s clip's frames and rate read from its MP4 index (a few KB, no ffmpeg), opened
    as the export opens it (no link followed out of the project); None where the clip is not
    laid out as the studio writes clips (:func:`studio.storage.mp4_index.clip_length`: one
    H.264 track, every frame inside the file, an intact key frame first) or can't be opened:
    the probe then reads it, or says why it can't. The rate is the one the probe reports."""
    if clip_permission_error(turn.clip, turn.label, turn.media_root, turn.clip_rel) is not None:
        return None
    found = indexed_clip_length(turn)
    if found is None:
        return None
    return StreamInfo(codec="h264", profile="", pix_fmt="", width=0, height=0, fps=found[1],
                      time_base="", frames=found[0])


def _length_of(turn: Turn) -> StreamInfo | ExportError:
    """The clip's frames and rate from its index, else from its probe (or why it can't be read).
    A missing clip (collected for subtitles: :attr:`Turn.clip_missing`) has the length its take
    was made with, where the take recorded it."""
    if turn.clip_missing:
        if turn.made_length is None:
            return ExportError(f"The clip of {turn.label} is missing ({turn.clip}), and its take recorded no length "
                               "to time the subtitles by.", hint=REMAKE_CLIP_HINT, remake=(turn.node_id,))
        frames, fps = turn.made_length
        return StreamInfo(codec="", profile="", pix_fmt="", width=0, height=0, fps=fps, time_base="", frames=frames)
    return indexed_info(turn) or _probe_turn(turn)


def plan_episode(branch: Branch, options: ExportOptions, progress: ProgressCallback,
                 cancelled: CancelCheck, *, lengths_only: bool = False) -> EpisodePlan:
    """Each clip read and the episode's timeline laid out. ``lengths_only`` (an SRT or an OTIO
    timeline, which read no picture): a clip as the studio writes it is read from its index
    alone (see :func:`indexed_info`), about a hundred times faster than probing it with ffmpeg;
    any other clip is probed as a video export probes it."""
    count = len(branch.turns)
    progress(Progress(0, count, "reading clips"))
    check_cancelled(cancelled)
    probed: list[StreamInfo | ExportError] = []
    batch = 64 if lengths_only else 8
    read = _length_of if lengths_only else _probe_turn
    for first in range(0, count, batch):
        turns = branch.turns[first:first + batch]
        with ThreadPoolExecutor(max_workers=PROBE_WORKERS) as pool:
            probed.extend(pool.map(read, turns))
        check_cancelled(cancelled)
        progress(Progress(len(probed), count, "reading clips"))
    error = _unreadable(branch, probed)
    if error is not None:
        raise error
    infos = [info for info in probed if isinstance(info, StreamInfo)]
    size = options.size or infos[0].size
    fps = exact_fps(options.fps) if options.fps else infos[0].fps
    timeline = plan_timeline(
        [turn_frames(turn, info, fps) for turn, info in zip(branch.turns, infos, strict=True)], fps,
        options.crossfade,
        options.title_duration if options.title.strip() else 0.0,
        options.end_card_duration if options.end_card.strip() else 0.0,
    )
    return EpisodePlan(infos, size, fps, timeline)
