"""The one entry point every front end uses: :func:`export_branch` (and :func:`export_task`
for the worker queue)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from studio.core.progress import CancelCheck, ProgressCallback, check_cancelled, never_cancelled, no_progress
from studio.core.text import first_few
from studio.export.branch import Branch, MissingClips, collect_branch, stale_note
from studio.export.encoding import check_options
from studio.export.errors import ExportError, os_error
from studio.export.options import (
    CaptionMode,
    ExportFormat,
    ExportOptions,
    ExportResult,
    captions_file,
    infer_format,
    output_files,
)
from studio.export.output import OutputFiles, check_destination, check_outputs, check_outside_project
from studio.export.plan import plan_episode
from studio.export.termination import cleaned_up_on_termination
from studio.storage import Project
from studio.storage.ffmpeg import MediaError

ExportJob = Callable[[ProgressCallback, CancelCheck], ExportResult]


def export_task(project: Project, leaf_id: str, out: str | os.PathLike[str], options: ExportOptions | None = None,
                fmt: ExportFormat | str | None = None) -> ExportJob:
    """Check the branch now and return the export as a job for the worker queue::

        service.submit_task("Export", export_task(project, leaf, out, options))

    Everything the job needs is read from the project here, on the calling thread; the job
    itself only reads media files and writes the export, so it may run on any thread.
    Bad branches, bad destinations (of every file the export writes) and options the format
    can't honour raise :class:`ExportError` right away.
    """
    out_path = Path(out).expanduser().absolute()
    chosen = infer_format(out_path, fmt)
    opts = options or ExportOptions()
    check_options(chosen, opts)
    check_destination(out_path)
    check_outside_project(out_path, project.path)
    # subtitles and sheets need no picture of a turn whose clip is gone: they are made without it
    branch = collect_branch(project, leaf_id, missing_clips=WITHOUT_PICTURES.get(chosen, MissingClips.REFUSED))
    others = [path for path in output_files(out_path, chosen, opts, len(branch.turns)) if path != out_path]
    check_outputs(out_path, others, project.path)  # out_path itself was checked above

    def job(progress: ProgressCallback = no_progress, cancelled: CancelCheck = never_cancelled) -> ExportResult:
        return export_collected(branch, out_path, chosen, opts, progress, cancelled)

    return job


def export_branch(project: Project, leaf_id: str, out: str | os.PathLike[str], fmt: ExportFormat | str | None = None,
                  options: ExportOptions | None = None, progress: ProgressCallback = no_progress,
                  cancelled: CancelCheck = never_cancelled) -> ExportResult:
    """Export the branch from the story's start to ``leaf_id`` into ``out``.

    The format comes from ``fmt`` or from ``out``'s suffix. On any failure (including
    cancel and Ctrl-C) nothing is left at the destination and the project is untouched.
    """
    return export_task(project, leaf_id, out, options, fmt)(progress, cancelled)


def export_collected(branch: Branch, out: Path, fmt: ExportFormat, options: ExportOptions,
                     progress: ProgressCallback = no_progress,
                     cancelled: CancelCheck = never_cancelled) -> ExportResult:
    """Export an already collected branch (see :func:`studio.export.branch.collect_branch`).

    On the main thread, SIGTERM and SIGHUP end the process only once the export has cleaned
    up (:func:`~studio.export.termination.cleaned_up_on_termination`)."""
    started = time.perf_counter()
    check_options(fmt, options)
    check_outputs(out, output_files(out, fmt, options, len(branch.turns)))  # before any encoding
    check_cancelled(cancelled)
    with cleaned_up_on_termination(), OutputFiles(out) as files:
        try:
            frames, duration, copied, pages, cut = _write(branch, out, fmt, options, files, progress, cancelled)
            check_cancelled(cancelled)
            paths = files.commit()
        except OSError as error:
            raise _folder_gone(out) or os_error(error, out) from None
        except MediaError as error:  # ffmpeg failed on a clip or on the output
            raise _folder_gone(out) or ExportError(error.message, error.hint) from None
        except ExportError as error:
            raise _folder_gone(out) or error from None
    from studio.export.glyphs import drawn_texts, export_fonts, glyph_note, missing_glyphs  # fonts: only now

    missing = missing_glyphs(drawn_texts(branch, options, fmt), export_fonts(fmt))
    notes = (missing_clips_note(branch, fmt), stale_note(branch), glyph_note(missing, fmt), *cut,
             earlier_captions_note(out, fmt, options), uncaptioned_note(branch, fmt, options))
    return ExportResult(format=fmt, paths=paths, duration=duration, frames=frames, used_stream_copy=copied,
                        seconds=time.perf_counter() - started, turns=len(branch.turns), pages=pages,
                        notes=tuple(note for note in notes if note))


WITHOUT_PICTURES = {ExportFormat.SRT: MissingClips.TIMED_BY_TAKE, ExportFormat.VTT: MissingClips.TIMED_BY_TAKE,
                    ExportFormat.PDF: MissingClips.SHOWN_WITHOUT,
                    ExportFormat.PNG: MissingClips.SHOWN_WITHOUT}
"""The formats made without a turn's clip where its file is missing (:func:`missing_clips_note`)."""


def missing_clips_note(branch: Branch, fmt: ExportFormat) -> str:
    """A note naming the turns whose clip file is missing ('' when none is): subtitles time
    such a turn by the length its take was made with, a sheet shows it without its picture
    (unless its poster is there); a video, a timeline or a GIF of the branch can't be made
    until it is made again."""
    gone = [turn for turn in branch.turns if turn.clip_missing]
    if not gone:
        return ""
    first = gone[0]
    many = len(gone) > 1
    also = f" (and the clips of turns {first_few([str(turn.number) for turn in gone[1:]])})" if many else ""
    which = "those turns" if many else "that turn"
    if fmt.is_subtitles:
        made = f"the subtitles time {which} by the length {'their takes were' if many else 'its take was'} made with"
    elif all(turn.poster is not None for turn in gone):
        made = f"the sheet shows {which} by {'their posters' if many else 'its poster'}"
    else:
        made = f"the sheet shows {which} without {'a picture' if not many else 'pictures'} where no poster is left"
    return (f"the clip of {first.label} is missing ({first.clip}){also}: {made}; a video or timeline of the branch "
            f"can't be made until {'they are' if many else 'it is'} re-rolled ({MISSING_CLIPS_LISTED})")


MISSING_CLIPS_LISTED = "`kamishibai info` lists missing clips"
"""Where :func:`missing_clips_note` sends the reader to find the missing clips (the window
says it in its own words: :func:`studio.ui.export_notes.window_hints`)."""


def earlier_captions_note(out: Path, fmt: ExportFormat, options: ExportOptions) -> str:
    """A note when a video written without SRT captions has an earlier export's ``.srt``
    beside it ('' otherwise). Players load a subtitle file of the video's name with it, so the
    old cues showed over the burned captions (or over a video meant to have none), doubled and
    timed for another cut. The file is left: it may have been edited or translated by hand.
    No note for a GIF: GIF viewers never load a subtitle file beside it."""
    srt = captions_file(out)
    if not fmt.is_video or fmt is ExportFormat.GIF or options.captions is CaptionMode.SRT or not srt.is_file():
        return ""
    over = "over the captions burned into it" if options.captions is CaptionMode.BURN else "though it has none"
    return (f"{srt.name} beside the video is from an earlier export, and players show it with the video, {over}; "
            "remove or rename it if its captions are not wanted.")


def uncaptioned_note(branch: Branch, fmt: ExportFormat, options: ExportOptions) -> str:
    """A note naming the turns that show no caption in subtitles or burned captions ('' when
    every turn has one, or the export has no captions): a turn with no dialogue nor narration
    whose instruction names no character, motion or place has no sentence to show, and an
    SRT file of such turns alone is empty, which looked like a failed export."""
    if not fmt.is_subtitles and not (fmt.is_video and options.captions is not CaptionMode.NONE):
        return ""
    from studio.export.cues import turn_cues

    silent = [turn.number for turn in branch.turns if not turn_cues(turn)]
    if not silent:
        return ""
    which = f"Turn {silent[0]}" if len(silent) == 1 else f"Turns {first_few([str(n) for n in silent])}"
    return (f"{which} {'has' if len(silent) == 1 else 'have'} no caption: no dialogue nor narration, and an "
            "instruction that names no character, motion or place; add a line or narration in the Story section "
            "(or `kamishibai say` / `kamishibai narrate`) to caption it")


def _folder_gone(out: Path) -> ExportError | None:
    """The error to report when ``out``'s folder was removed or moved while the export ran
    (None while it is still there). The work folder inside it went with it, and the error
    that stopped the export named what failed next: ffmpeg's "Error writing trailer: No
    such file or directory", "could not write palette.png", or "Nothing was written"."""
    if out.parent.is_dir():
        return None
    return ExportError(f"The folder {out.parent} was removed or moved while the export ran, so {out.name} was not "
                       "written.", hint="Create the folder again (or choose another one), then export again.")


def _write(branch: Branch, out: Path, fmt: ExportFormat, options: ExportOptions, files: OutputFiles,
           progress: ProgressCallback, cancelled: CancelCheck) -> tuple[int, float, bool, int, list[str]]:
    """Write the export into ``files``; returns (frames, duration, used stream copy, pages, notes
    of the cards' and captions' texts cut short)."""
    if fmt.is_sheet:
        from studio.export.sheet import export_sheet

        sheet = export_sheet(branch, out, fmt, options, files, progress, cancelled)
        return 0, 0.0, False, sheet.pages, list(sheet.notes)
    plan = plan_episode(branch, options, progress, cancelled, lengths_only=not fmt.is_video)
    timeline = plan.timeline
    if fmt.is_video:
        from studio.export.compose import cut_captions_note, cut_cards_notes
        from studio.export.video import export_video, overlay_note

        made = export_video(branch, plan, out, fmt, options, files, progress, cancelled)
        from studio.export.compose import picture_box

        boxes = [picture_box(made.size, info.size) for info in plan.infos]
        cut = [*cut_cards_notes(made.size, options), cut_captions_note(branch, timeline, made.size, options, boxes),
               overlay_note(made.size, options)]
        return made.frames, made.duration, made.used_stream_copy, 0, cut
    if fmt == ExportFormat.SRT:
        from studio.export.subtitles import write_srt

        write_srt(files.temp_for(out), branch, timeline)
    elif fmt == ExportFormat.VTT:
        from studio.export.subtitles import write_vtt

        write_vtt(files.temp_for(out), branch, timeline)
    elif fmt == ExportFormat.OTIO:
        from studio.export.options import media_folder
        from studio.export.otio_media import TimelineMediaFolder
        from studio.export.otio_timeline import write_otio

        folder = media_folder(out)
        media = TimelineMediaFolder(files.temp_folder_for(folder), folder.name, options.size, timeline.fps,
                                    branch.turns[0])
        write_otio(files.temp_for(out), branch, plan.infos, timeline, media, options.title.strip(),
                   options.end_card.strip())
    else:  # pragma: no cover - every ExportFormat is handled above
        raise ExportError(f"Unsupported export format {fmt}.")
    from studio.export.subtitles import shortened_captions_note

    return timeline.total_frames, timeline.duration, False, 0, [shortened_captions_note(branch, timeline)]
