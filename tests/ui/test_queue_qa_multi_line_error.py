"""A job that fails with a multi-line error (an engine's message with its traceback's last
lines, a hint over two lines) shows it line by line under the queue (QA: the rich-text line
read every newline as a space, so "Traceback: File ... ValueError: ..." ran into one line)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QTextDocument

from studio.core.jobs import JobKind
from studio.ui.job_tracker import JobTracker
from studio.ui.queue_panel import QueuePanel
from studio.worker.events import JobStatus

from .test_queue_panel_updates import StubJob, StubService

ERROR = ("The engine stopped.\nTraceback (most recent call last):\n  File \"engine.py\", line 3\n"
         "ValueError: <bad> & worse")


@dataclass(frozen=True)
class Job(StubJob):
    kind: JobKind = JobKind.GENERATE
    node_id: str = "turn"


def _shown_lines(html_text: str) -> list[str]:
    """The lines a rich-text label draws for ``html_text``."""
    document = QTextDocument()
    document.setHtml(html_text)
    return [line.strip() for line in document.toPlainText().splitlines()]


def test_a_multi_line_error_and_hint_keep_their_lines(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = QueuePanel(JobTracker(), lambda job: f"job {job.id}")
    qtbot.addWidget(panel)
    panel.set_service(StubService([Job("f", JobStatus.FAILED, error=ERROR, hint="Free some memory.\nThen retry.")]))
    panel.select_job("f")
    assert _shown_lines(panel.detail.text()) == [
        "Failed: The engine stopped.",
        "Traceback (most recent call last):",
        'File "engine.py", line 3',
        "ValueError: <bad> & worse",  # still shown as written, never read as markup
        "Hint: Free some memory.",
        "Then retry.",
    ]
