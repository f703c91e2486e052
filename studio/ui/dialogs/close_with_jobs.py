"""The question a window asks when it closes (or closes its project) with jobs in the queue.

Its buttons say what each does to the window and to the jobs: "Cancel them" (discard the
jobs) beside "Cancel" (don't close) read as one, and an author meaning to stay could throw
the queue away."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

FINISH, DISCARD, KEEP = "finish", "cancel", "keep"
"""The answers: finish the jobs then close, cancel them and close, keep them for next time."""
FINISH_LABEL = "Finish them, then close"
DISCARD_LABEL = "Cancel the jobs and close"
KEEP_LABEL = "Keep them for next time"
STAY_LABEL = "Don't close"


def jobs_waiting_text(count: int) -> str:
    """The question's first line: "1 generation job is queued or running." / "9 … jobs are …"."""
    return f"{count:,} generation {'job is' if count == 1 else 'jobs are'} queued or running."


def close_with_jobs_box(parent: QWidget | None, count: int) -> tuple[QMessageBox, dict[QAbstractButton, str]]:
    """The question, built and not shown, with the answer each of its buttons gives (the
    "Don't close" button gives none)."""
    box = QMessageBox(parent)
    box.setWindowTitle("Jobs in the queue")
    box.setIcon(QMessageBox.Icon.Question)
    box.setText(jobs_waiting_text(count))
    them = "it" if count == 1 else "them"
    box.setInformativeText(f"Finish {them} before closing, cancel {them}, or keep {them} queued for the next "
                           "time the project opens? (Kept, a running job stops now and runs again, with its "
                           "seed, when the project opens next.)")
    labels = (FINISH_LABEL, DISCARD_LABEL, KEEP_LABEL) if count != 1 else (
        "Finish it, then close", "Cancel the job and close", "Keep it for next time")
    finish = box.addButton(labels[0], QMessageBox.ButtonRole.AcceptRole)
    discard = box.addButton(labels[1], QMessageBox.ButtonRole.DestructiveRole)
    keep = box.addButton(labels[2], QMessageBox.ButtonRole.ActionRole)
    stay = box.addButton(STAY_LABEL, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(finish)
    box.setEscapeButton(stay)
    return box, {finish: FINISH, discard: DISCARD, keep: KEEP}
