"""Storyboard sheets (see :mod:`studio.export.storyboard`) as a PDF or as PNG pages."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from PIL import Image

from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled
from studio.core.text import first_few
from studio.export.branch import (
    Branch,
    Turn,
    clip_source,
    indexed_clip_length,
    media_source,
    open_poster,
)
from studio.export.errors import REMAKE_CLIP_HINT, ExportError, as_sentence, clip_permission_error
from studio.export.options import (
    ExportFormat,
    ExportOptions,
    PanelAspect,
    png_sheet_files,
    superseded_sheet_pages,
)
from studio.export.output import OutputFiles, check_outputs
from studio.export.storyboard import WIDE, StoryboardLayout, draw_page, lay_out_sheet, sheet_title, turn_as_cut
from studio.storage.paths import UnsafePathError


@dataclass(frozen=True)
class SheetMade:
    pages: int
    notes: tuple[str, ...] = ()
    """What the user should know of the sheet (:func:`unreadable_clips_note`)."""


def export_sheet(branch: Branch, out: Path, fmt: ExportFormat, options: ExportOptions, files: OutputFiles,
                 progress: ProgressCallback, cancelled: CancelCheck) -> SheetMade:
    turns, unreadable = sheet_cut(branch)
    first = poster_image(turns[0])
    layout = sheet_layout(options, first)
    title = sheet_title(branch, options.sheet_title or options.title)
    from studio.export.sheet_pdf import PdfSheet, sheet_metadata  # reportlab loads only for a PDF

    metadata = sheet_metadata(branch, title)  # a PDF's document information, a PNG page's text chunks
    pdf = None
    if fmt == ExportFormat.PDF:
        pdf = PdfSheet(files.temp_for(out), layout, metadata)
        sheet = lay_out_sheet(layout, turns, pdf.width)
        targets: list[Path] = []
    else:
        from studio.export.sheet_png import PngPage, page_info, save_page

        sheet = lay_out_sheet(layout, turns, PngPage(layout).width)
        # a turn whose text goes on in a continuation panel can add pages to those the turns
        # fill: the files of the count made here are checked, as the others were before
        final = png_sheet_files(out, len(sheet))
        check_outputs(out, final)
        targets = [files.temp_for(path) for path in final]
        files.supersede(superseded_sheet_pages(out))  # an earlier sheet's pages past the last
    pages = len(sheet)
    for page, panels in enumerate(sheet):
        check_cancelled(cancelled)
        progress(Progress(page, pages, f"page {page + 1} of {pages}"))
        pictures: list[Image.Image | None] = [
            None if panel.continued else first if panel.turn is turns[0] else poster_image(panel.turn)
            for panel in panels]
        if pdf is not None:
            draw_page(pdf, layout, branch, title, page + 1, pages, panels, pictures)
            pdf.end_page()
        else:
            canvas = PngPage(layout)
            draw_page(canvas, layout, branch, title, page + 1, pages, panels, pictures)
            save_page(canvas.page, targets[page], page_info(metadata, page + 1, pages))
    if pdf is not None:
        pdf.save()
    progress(Progress(pages, pages, "sheet done"))
    note = unreadable_clips_note(unreadable)
    return SheetMade(pages, (note,) if note else ())


def sheet_layout(options: ExportOptions, first: Image.Image) -> StoryboardLayout:
    """The sheet's layout: its panels per page, in 16:9 or the shape of the first turn's picture."""
    aspect = WIDE if options.panel_aspect is PanelAspect.WIDE else first.height / first.width
    return StoryboardLayout(options.panels_per_page, aspect)


def sheet_page_total(branch: Branch, options: ExportOptions, fmt: ExportFormat = ExportFormat.PNG) -> int:
    """The pages a sheet of ``branch`` in ``fmt`` has, continuation panels and all, as
    :func:`export_sheet` lays them out (without drawing them): what names a PNG sheet's files
    exactly, where :func:`~studio.export.options.sheet_page_count` knows only the turns'
    count. Reads the first poster (its shape sets the panels')."""
    layout = sheet_layout(options, poster_image(branch.turns[0]))
    if fmt == ExportFormat.PDF:
        from studio.export.sheet_pdf import PdfMetadata, PdfSheet

        measure = PdfSheet(Path("measure.pdf"), layout, PdfMetadata("")).width  # a canvas never saved: no file
    else:
        from studio.export.sheet_png import PngPage

        measure = PngPage(layout).width
    return len(lay_out_sheet(layout, sheet_turns(branch), measure))


def sheet_turns(branch: Branch) -> list[Turn]:
    """The branch's turns as its sheet shows them: see :func:`sheet_cut`."""
    return sheet_cut(branch)[0]


def sheet_cut(branch: Branch) -> tuple[list[Turn], list[tuple[Turn, ExportError]]]:
    """The branch's turns as its sheet shows them, and those whose clip can't be read (with
    why). Each turn has its duration as the video gives it, in whole frames of the first
    clip's rate (the rate a video of the branch has unless another is asked for): a set
    duration held or trimmed to whole frames (0.8 s at 8 fps is 0.75 s), else the clip's own
    length (:func:`~studio.export.storyboard.turn_as_cut`).

    A clip as the studio writes it is read from its index (a few KB, no ffmpeg:
    :func:`~studio.export.branch.indexed_clip_length`); any other is probed as the video export probes it
    (:func:`~studio.export.plan.probe_clips`), so the sheet gives the numbers the video has.
    A sheet needs only the posters, so a clip that can't be read costs only its own turn's
    duration (unless one is set): where the first clip is one of them, the rate is the first
    readable clip's. (Where the first clip alone was cut short, every turn's duration was
    dropped.) Every clip is read, so that the unreadable ones can be named."""
    turns = list(branch.turns)
    lengths, unreadable = _clip_lengths(turns)
    if not lengths:
        return turns, [(turns[index], error) for index, error in sorted(unreadable.items())]
    fps = lengths[min(lengths)][1]
    from studio.export.timeline import output_frames

    def clip_frames(index: int) -> int | None:
        found = lengths.get(index)
        return output_frames(found[0], found[1], fps) if found is not None else None

    shown = [turn_as_cut(turn, fps, clip_frames(index)) for index, turn in enumerate(turns)]
    return shown, [(turns[index], error) for index, error in sorted(unreadable.items())]


def _clip_lengths(turns: list[Turn]) -> tuple[dict[int, tuple[int, Fraction]], dict[int, ExportError]]:
    """(frames, rate) of each turn's clip that can be read, by the turn's index, and the error
    of each that can't."""
    from studio.export.plan import probe_clips
    from studio.storage.ffmpeg import StreamInfo

    lengths = {index: found for index, turn in enumerate(turns)
               if (found := turn.made_length if turn.clip_missing else indexed_clip_length(turn)) is not None}
    # a missing clip is not probed: the export's note names it (studio.export.api.missing_clips_note)
    unread = [index for index in range(len(turns)) if index not in lengths and not turns[index].clip_missing]
    errors: dict[int, ExportError] = {}
    for index, info in zip(unread, probe_clips([turns[index] for index in unread]), strict=True):
        if isinstance(info, StreamInfo):
            lengths[index] = (info.frames, info.fps)
        else:
            errors[index] = info
    return lengths, errors


def unreadable_clips_note(unreadable: list[tuple[Turn, ExportError]]) -> str:
    """A note naming the turns whose clip can't be read ("" when there are none): the sheet is
    made from their posters, and shows no duration for them unless one is set, but a video
    of the branch can't be made until they are made again. The sheet was written without a
    word, though the video, SRT and OTIO exports of the same branch refuse."""
    if not unreadable:
        return ""
    first = unreadable[0][1].message.rstrip(".")
    others = [str(turn.number) for turn, _error in unreadable[1:]]
    many = bool(others)
    also = f" (and the clip{'s' if len(others) > 1 else ''} of turn{'s' if len(others) > 1 else ''} " \
           f"{first_few(others)} can't be read either)" if many else ""
    return (f"{first[:1].lower()}{first[1:]}{also}; the sheet shows {'those turns' if many else 'that turn'} "
            f"without the clip's duration, and a video of the branch can't be made until "
            f"{'they are' if many else 'it is'} re-rolled (`kamishibai info` lists the damaged clips)")


MISSING_PICTURE_SIZE = (720, 480)
MISSING_PICTURE_GREY = (128, 128, 128)
"""The panel of a turn whose clip and poster are both gone: the studio's clips' size, grey."""


def poster_image(turn: Turn) -> Image.Image:
    """The take's poster, or the clip's first frame when the poster file is missing, is
    not an image, or is too large to decode safely (see :func:`open_image`)."""
    from studio.storage.images import MAX_IMAGE_PIXELS, open_image
    from studio.storage.media import MediaError

    if turn.poster is not None:
        try:
            with media_source(open_poster(turn)) as source:  # never through a link swapped in meanwhile
                return open_image(source, what="poster")
        except (MediaError, OSError, UnsafePathError):
            pass
    if turn.clip_missing:  # no picture to show: a plain grey panel (the export's note says why)
        return Image.new("RGB", MISSING_PICTURE_SIZE, MISSING_PICTURE_GREY)
    from studio.storage.ffmpeg import decode_frames, probe

    denied = clip_permission_error(turn.clip, turn.label, turn.media_root, turn.clip_rel)
    if denied is not None:
        raise denied
    with clip_source(turn) as source:
        try:
            info = probe(source)
            width, height = info.size
            if width * height > MAX_IMAGE_PIXELS:
                raise ExportError(f"The clip of {turn.label} is {width} x {height} pixels; the limit is "
                                  f"{MAX_IMAGE_PIXELS / 1e6:.1f} megapixels.", hint="Re-roll the turn.")
            frames = decode_frames(source, info.size)
            try:
                first = next(frames)
            finally:
                frames.close()
        except (MediaError, StopIteration, OSError) as error:
            message = error.message if isinstance(error, MediaError) else str(error) or "it holds no frames"
            message = message.replace(str(source), str(turn.clip))  # a descriptor's name means nothing to a user
            raise ExportError(f"The clip of {turn.label} can't be read: {as_sentence(message)}",
                              hint=REMAKE_CLIP_HINT, remake=(turn.node_id,)) from None
    return Image.fromarray(first.copy())
