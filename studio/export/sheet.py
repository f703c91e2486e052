"""Storyboard sheets: the branch's turns in a grid (poster, turn number, instruction,
state), as a PDF or as PNG pages, with the title and page numbers on every page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from studio.core.progress import CancelCheck, Progress, ProgressCallback, check_cancelled
from studio.export.branch import Branch
from studio.export.options import ExportFormat, ExportOptions
from studio.export.output import OutputFiles
from studio.export.sheet_layout import A4_LANDSCAPE, SheetLayout, poster_image, sheet_title
from studio.export.sheet_png import png_page_paths, render_png_page


@dataclass(frozen=True)
class SheetMade:
    pages: int


def export_sheet(branch: Branch, out: Path, fmt: ExportFormat, options: ExportOptions, files: OutputFiles,
                 progress: ProgressCallback, cancelled: CancelCheck) -> SheetMade:
    columns, rows = options.grid
    turns = list(branch.turns)
    first = poster_image(turns[0])
    layout = SheetLayout(A4_LANDSCAPE, columns, rows, aspect=first.height / first.width)
    pages = layout.pages(len(turns))
    title = sheet_title(branch, options.sheet_title or options.title)
    pdf = None
    if fmt == ExportFormat.PDF:
        from studio.export.sheet_pdf import PdfSheet

        pdf = PdfSheet(files.temp_for(out), layout, title)
        targets: list[Path] = []
    else:
        targets = [files.temp_for(path) for path in png_page_paths(out, pages)]
    for page in range(pages):
        check_cancelled(cancelled)
        progress(Progress(page, pages, f"page {page + 1} of {pages}"))
        chunk = turns[page * layout.per_page:(page + 1) * layout.per_page]
        posters = [first if page == 0 and index == 0 else poster_image(turn) for index, turn in enumerate(chunk)]
        if pdf is not None:
            pdf.page(branch, title, page + 1, pages, chunk, posters)
        else:
            render_png_page(layout, branch, title, page + 1, pages, chunk, posters).save(targets[page], format="PNG")
    if pdf is not None:
        pdf.save()
    progress(Progress(pages, pages, "sheet done"))
    return SheetMade(pages)
