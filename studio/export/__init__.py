"""Export: a branch (story start to a chosen leaf) as a finished episode.

Video (mp4, webm, GIF) with optional title/end cards, crossfades, burned-in or SRT
captions and a state overlay; storyboard sheets (PDF, PNG); SRT subtitles; an
OpenTimelineIO timeline. No Qt here: the GUI's export dialog and the CLI both call
:func:`export_branch` (or queue :func:`export_task` on the worker).

Heavy libraries (opentimelineio and reportlab) are imported
inside the functions that need them, so importing this package is cheap.
"""

from studio.export.api import ExportJob, export_branch, export_collected, export_task
from studio.export.branch import Branch, Turn, collect_branch
from studio.export.errors import ExportError
from studio.export.options import (
    CaptionMode,
    ExportFormat,
    ExportOptions,
    ExportResult,
    describe_files,
    existing_outputs,
    infer_format,
)

__all__ = [
    "Branch",
    "CaptionMode",
    "ExportError",
    "ExportFormat",
    "ExportJob",
    "ExportOptions",
    "ExportResult",
    "Turn",
    "collect_branch",
    "describe_files",
    "existing_outputs",
    "export_branch",
    "export_collected",
    "export_task",
    "infer_format",
]
