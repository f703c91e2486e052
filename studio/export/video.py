"""Branch -> mp4 / webm / GIF, by stream copy when possible, else by composing frames.

Stream copy (ffmpeg's concat demuxer, ``-c copy``) is lossless and takes well under a
second even for long branches, but it can only join what is already there: it needs
clips that share codec parameters and an output that asks for no new pixels.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled
from studio.export.branch import Branch, clean_text, clip_source
from studio.export.compose import episode_frames
from studio.export.drawing import overlay_form, overlay_least_frame
from studio.export.encoding import (
    check_frame_rate,
    check_frame_size,
    encodable_size,
    encoder_args,
    gif_args,
    gif_palette_args,
)
from studio.export.errors import ExportError
from studio.export.memory import check_memory
from studio.export.options import CaptionMode, ExportFormat, ExportOptions, captions_file
from studio.export.output import OutputFiles
from studio.export.plan import EpisodePlan, retimed_turns
from studio.export.subtitles import write_srt
from studio.storage.ffmpeg import FrameEncoder, path_arg, run_with_progress

CONTAINER_CODECS: dict[ExportFormat, frozenset[str]] = {
    ExportFormat.MP4: frozenset({"h264", "hevc", "av1", "mpeg4"}),
    ExportFormat.WEBM: frozenset({"vp8", "vp9", "av1"}),
}
PROGRESS_EVERY = 4
"""Report progress every few frames (a GUI redraw per frame would cost more than the frame)."""


@dataclass(frozen=True)
class VideoMade:
    frames: int
    duration: float
    used_stream_copy: bool
    size: tuple[int, int]
    """The frames' size (the clips' own, made even for mp4 and webm where none was asked for)."""


def overlay_note(size: tuple[int, int], options: ExportOptions) -> str:
    """A note saying the state overlay asked for was left out, the frame being too small for
    even its smallest form (:func:`studio.export.drawing.overlay_form`), or ''."""
    if not options.overlay or overlay_form(size, named=False) is not None:
        return ""
    least_w, least_h = overlay_least_frame()
    return (f"the state overlay was left out: a {size[0]}x{size[1]} frame has no room for its bars "
            f"(a --size of at least {least_w}x{least_h} shows them)")


def stream_copy_refusal(fmt: ExportFormat, options: ExportOptions, plan: EpisodePlan, branch: Branch) -> str | None:
    """Why the clips can't simply be joined (None: they can)."""
    if not options.stream_copy:
        return "re-encoding was asked for"
    if options.crf is not None:
        return "a quality (CRF) was asked for"
    if fmt not in CONTAINER_CODECS:
        return f"{fmt.value} is always encoded"
    if options.needs_new_pixels:
        return "cards, captions, the overlay or crossfades need new frames"
    first = plan.infos[0]
    if first.codec not in CONTAINER_CODECS[fmt]:
        return f"{first.codec} clips don't fit in {fmt.value}"
    if any(info.copy_key() != first.copy_key() for info in plan.infos[1:]):
        return "the clips differ in codec, size, frame rate or pixel format"
    if plan.size != first.size or plan.fps != first.fps:
        return "the output size or frame rate differs from the clips'"
    retimed = retimed_turns(branch, plan)
    if retimed:
        return f"the duration of turn(s) {', '.join(map(str, retimed))} holds or trims their clip"
    return None


def concat_listing(branch: Branch, files: OutputFiles, sources: list[Path] | None = None) -> Path:
    """ffmpeg's concat list for the branch's clips, read from ``sources`` (one name per turn,
    see :func:`~studio.export.branch.clip_source`; the clips' own paths when not given).

    The list format can't hold every path (a line break ends an entry), so each clip is
    named through a symbolic link with a plain name in the work folder; ffmpeg resolves
    names in the list from the list's own folder. Where links can't be made, the paths
    are quoted, and a path that can't be quoted is refused clearly.

    ffmpeg reads the list's own path as a URL when it resolves a name against it: a ``#`` or
    ``?`` in the export's folder ("Episode #2") began a fragment or a query, the clips were
    looked for in a folder above, and the join failed ("Error opening input files"). In such
    a folder the links are named in full."""
    listing = files.scratch("clips.txt")
    links = files.scratch("clips")
    reads = sources if sources is not None else [turn.clip.resolve() for turn in branch.turns]
    in_full = any(char in str(listing) for char in "#?")
    names: list[str] = []
    try:
        links.mkdir()
        for index, turn in enumerate(branch.turns):
            name = f"clips/{index:05d}{turn.clip.suffix}"
            os.symlink(reads[index], files.scratch(name))
            names.append(str(files.scratch(name)) if in_full else name)
        if in_full and any(c in str(listing) for c in "\r\n"):
            raise ExportError(f"Can't join the clips by stream copy: the folder {files.out.parent} holds a line "
                              "break and a '#' or '?'.",
                              hint="Export with --reencode, or export to a folder with a plainer name.")
    except OSError:
        names = []
        for read in reads:
            real = str(read)
            if any(c in real for c in "\r\n"):
                raise ExportError(f"Can't join the clips by stream copy: the path {real!r} holds a line break.",
                                  hint="Export with --reencode, or move the project to a plainer path.") from None
            names.append(real)
    listing.write_text("ffconcat version 1.0\n" + "".join(f"file {_quote(name)}\n" for name in names),
                       encoding="utf-8", errors="surrogateescape")
    return listing


def _quote(path: str) -> str:
    return "'" + path.replace("'", "'\\''") + "'"


def video_title(branch: Branch, options: ExportOptions) -> str:
    """The title written into an mp4's or webm's metadata: the title card's text, else the
    project's name, on one line. Players show it in a window's title bar or a list, where
    the card's line breaks made a title of several lines (or cut it at the first)."""
    return " ".join(clean_text(options.title).split()) or " ".join(clean_text(branch.project_name).split())


def join_by_stream_copy(branch: Branch, plan: EpisodePlan, fmt: ExportFormat, target: Path, files: OutputFiles,
                        progress: ProgressCallback, cancelled: CancelCheck, title: str = "") -> None:
    """Join the clips without re-encoding; ``title`` goes into the metadata, as an encoded
    video's does (a joined episode had none)."""
    total = plan.timeline.total_frames
    muxer = ["-movflags", "+faststart", "-f", "mp4"] if fmt == ExportFormat.MP4 else ["-f", "webm"]
    if title:
        muxer = ["-metadata", f"title={title}", *muxer]
    duration = plan.timeline.duration

    def joined(seconds: float) -> None:
        progress(Progress(round(seconds / duration * total) if duration > 0 else 0, total,
                          "joining clips (stream copy)"))

    with contextlib.ExitStack() as opened:  # each clip opened without following a link, for the join
        sources = [opened.enter_context(clip_source(turn)) for turn in branch.turns]
        listing = concat_listing(branch, files, sources)
        run_with_progress(["-f", "concat", "-safe", "0", "-i", path_arg(listing), "-map", "0:v:0", "-c", "copy",
                           *muxer, path_arg(target)], target, duration, joined, cancelled)


def encode_episode(branch: Branch, plan: EpisodePlan, fmt: ExportFormat, options: ExportOptions, target: Path,
                   files: OutputFiles, progress: ProgressCallback, cancelled: CancelCheck) -> None:
    """Compose the episode's frames and encode them; a GIF in two passes (:func:`encode_gif`)."""
    check_frame_size(fmt, plan.size)
    check_frame_rate(fmt, plan.fps, from_clips=options.fps is None)
    check_memory(fmt, plan.size, asked=options.size is not None)
    if fmt == ExportFormat.GIF:
        encode_gif(branch, plan, options, target, files, progress, cancelled)
        return
    title = video_title(branch, options)
    output = encoder_args(fmt, options.crf, plan.fps, plan.timeline.total_frames)
    encode_frames(branch, plan, options, target, output, title, progress, cancelled, f"encoding {fmt.value}")


def encode_gif(branch: Branch, plan: EpisodePlan, options: ExportOptions, target: Path, files: OutputFiles,
               progress: ProgressCallback, cancelled: CancelCheck) -> None:
    """A GIF with one palette made for all its frames, in two passes over the frames: the
    first makes the palette from every frame's colours, the second maps each frame to it.

    One pass (``split``, ``palettegen``, ``paletteuse`` in one filter graph) needs every
    frame at hand before the palette is known: ffmpeg held them all, 4 bytes a pixel, and a
    large GIF was killed for memory. Two passes hold one frame at a time and write the
    same file; the frames are composed twice, which costs less than encoding them."""
    palette = files.scratch("palette.png")
    encode_frames(branch, plan, options, palette, gif_palette_args(), "", progress, cancelled,
                  "encoding gif: choosing the colours (pass 1 of 2)", passes=(0, 2))
    encode_frames(branch, plan, options, target, gif_args(palette, plan.fps, plan.timeline.total_frames), "",
                  progress, cancelled, "encoding gif: pass 2 of 2", passes=(1, 2))


def encode_frames(branch: Branch, plan: EpisodePlan, options: ExportOptions, target: Path, output: list[str],
                  title: str, progress: ProgressCallback, cancelled: CancelCheck, what: str,
                  passes: tuple[int, int] = (0, 1)) -> None:
    """Compose the episode's frames and pipe them into ffmpeg, which writes ``target`` with the
    ``output`` options. ``passes``: (this pass, of how many), for the progress."""
    frames = episode_frames(branch, plan.infos, plan.timeline, plan.size, options)
    count = plan.timeline.total_frames
    done, total = passes[0] * count, passes[1] * count
    with FrameEncoder(target, plan.size, plan.fps, output, title) as encoder, contextlib.closing(frames):
        for index, frame in enumerate(frames):
            check_cancelled(cancelled)
            encoder.write(frame)
            if index % PROGRESS_EVERY == 0:
                progress(Progress(done + index, total, what))
        progress(Progress(done + count, total, f"{what.split(':')[0]}: finishing"))
        encoder.finish()


def export_video(branch: Branch, plan: EpisodePlan, out: Path, fmt: ExportFormat, options: ExportOptions,
                 files: OutputFiles, progress: ProgressCallback, cancelled: CancelCheck) -> VideoMade:
    target = files.temp_for(out)
    refusal = stream_copy_refusal(fmt, options, plan, branch)
    if refusal is None:
        progress(Progress(0, plan.timeline.total_frames, "joining clips (stream copy)"))
        join_by_stream_copy(branch, plan, fmt, target, files, progress, cancelled, video_title(branch, options))
    else:
        if options.size is None:
            plan = replace(plan, size=encodable_size(fmt, plan.size))
        passes = 2 if fmt == ExportFormat.GIF else 1  # the same total as encode_frames reports
        progress(Progress(0, passes * plan.timeline.total_frames, f"encoding {fmt.value}: re-encoding, {refusal}"))
        with read_through_sources(branch) as read:
            try:
                encode_episode(read, plan, fmt, options, target, files, progress, cancelled)
            except ExportError as error:
                raise _named_back(error, read, branch) from None
    if options.captions == CaptionMode.SRT:
        write_srt(files.temp_for(captions_file(out)), branch, plan.timeline)
    return VideoMade(plan.timeline.total_frames, plan.timeline.duration, refusal is None, plan.size)


@contextlib.contextmanager
def read_through_sources(branch: Branch) -> Iterator[Branch]:
    """``branch`` with each clip named by its :func:`~studio.export.branch.clip_source` (the
    file opened without following a link), for the composing of its frames: a clip replaced by
    a link to a file outside the project since the branch was collected is refused, never read."""
    with contextlib.ExitStack() as opened:
        turns = tuple(replace(turn, clip=opened.enter_context(clip_source(turn))) for turn in branch.turns)
        yield replace(branch, turns=turns)


def _named_back(error: ExportError, read: Branch, branch: Branch) -> ExportError:
    """``error`` with the clips' own paths where it names the names they were read by."""
    message = error.message
    for source, turn in zip(read.turns, branch.turns, strict=True):
        if source.clip != turn.clip:
            message = message.replace(str(source.clip), str(turn.clip))
    if message == error.message:
        return error
    return type(error)(message, hint=error.hint, remake=error.remake)
