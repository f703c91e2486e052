"""Storyboard sheets (see :mod:`studio.export.storyboard`) as a PDF or as PNG pages."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled
from studio.export.branch import Branch, Turn
from studio.export.errors import REMAKE_CLIP_HINT, ExportError, as_sentence
from studio.export.options import (
    ExportFormat,
    ExportOptions,
    PanelAspect,
    png_sheet_files,
    sheet_page_count,
    superseded_sheet_pages,
)
from studio.export.output import OutputFiles
from studio.export.storyboard import WIDE, StoryboardLayout, draw_page, sheet_title


@dataclass(frozen=True)
class SheetMade:
    pages: int


def export_sheet(branch: Branch, out: Path, fmt: ExportFormat, options: ExportOptions, files: OutputFiles,
                 progress: ProgressCallback, cancelled: CancelCheck) -> SheetMade:
    turns = list(branch.turns)
    first = poster_image(turns[0])
    aspect = WIDE if options.panel_aspect is PanelAspect.WIDE else first.height / first.width
    layout = StoryboardLayout(options.panels_per_page, aspect)
    pages = sheet_page_count(len(turns), options.panels_per_page)  # as the replace check counts them
    title = sheet_title(branch, options.sheet_title or options.title)
    pdf = None
    if fmt == ExportFormat.PDF:
        from studio.export.sheet_pdf import PdfSheet, sheet_metadata

        pdf = PdfSheet(files.temp_for(out), layout, sheet_metadata(branch, title))
        targets: list[Path] = []
    else:
        # the files that existing_outputs (the replace check) names, computed the same way
        targets = [files.temp_for(path) for path in png_sheet_files(out, pages)]
        files.supersede(superseded_sheet_pages(out))  # an earlier sheet's pages past the last
    for page in range(pages):
        check_cancelled(cancelled)
        progress(Progress(page, pages, f"page {page + 1} of {pages}"))
        chunk = turns[page * layout.per_page:(page + 1) * layout.per_page]
        pictures = [first if page == 0 and index == 0 else poster_image(turn) for index, turn in enumerate(chunk)]
        if pdf is not None:
            draw_page(pdf, layout, branch, title, page + 1, pages, chunk, pictures)
            pdf.end_page()
        else:
            from studio.export.sheet_png import PngPage

            canvas = PngPage(layout)
            draw_page(canvas, layout, branch, title, page + 1, pages, chunk, pictures)
            canvas.page.save(targets[page], format="PNG")
    if pdf is not None:
        pdf.save()
    progress(Progress(pages, pages, "sheet done"))
    return SheetMade(pages)


def poster_image(turn: Turn) -> Image.Image:
    """The take's poster, or the clip's first frame when the poster file is missing, is
    not an image, or is too large to decode safely (see :func:`open_image`)."""
    from studio.storage.images import MAX_IMAGE_PIXELS, open_image
    from studio.storage.media import MediaError

    if turn.poster is not None:
        try:
            return open_image(turn.poster, what="poster")
        except MediaError:
            pass
    from studio.storage.ffmpeg import decode_frames, probe

    try:
        info = probe(turn.clip)
        width, height = info.size
        if width * height > MAX_IMAGE_PIXELS:
            raise ExportError(f"The clip of {turn.label} is {width} x {height} pixels; the limit is "
                              f"{MAX_IMAGE_PIXELS / 1e6:.1f} megapixels.", hint="Re-roll the turn.")
        frames = decode_frames(turn.clip, info.size)
        try:
            first = next(frames)
        finally:
            frames.close()
    except (MediaError, StopIteration, OSError) as error:
        message = error.message if isinstance(error, MediaError) else str(error) or "it holds no frames"
        raise ExportError(f"The clip of {turn.label} can't be read: {as_sentence(message)}",
                          hint=REMAKE_CLIP_HINT) from None
    return Image.fromarray(first.copy())
