"""What cancelling jobs in the queue takes along, asked before and told after, in words.

Cancelling a job cancels the jobs that continue from it (the turns after it in a branch
re-roll have nothing to continue from): the queue asks first when there are such jobs, and
then says what was done in one line, instead of one "cancelled" message per job."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QMessageBox, QWidget

from studio.ui.job_tracker import kind_name
from studio.worker.queue import CASCADE_CANCEL

__all__ = ["CASCADE_CANCEL", "CancelOutcome", "ask_yes_or_cancel", "cancel_question", "cancel_with_followers",
           "followers"]

WAITING = ("queued", "interrupted")
"""The statuses of a job that a cancel of the job it continues from cancels with it."""

_NOUNS = {"Re-roll": "re-roll", "Generate": "generation"}


def followers(selected: Collection[str], jobs: Iterable[Any]) -> list[Any]:
    """The waiting jobs that continue from the ``selected`` ones (through other waiting jobs),
    in the queue's order; the selected ones left out."""
    table = list(jobs)
    waiting = [job for job in table if kind_name(job.status) in WAITING]
    found: list[Any] = []
    reached = set(selected)
    grew = True
    while grew:
        grew = False
        for job in waiting:
            if job.id not in reached and getattr(job, "depends_on", None) in reached:
                reached.add(job.id)
                found.append(job)
                grew = True
    order = {job.id: index for index, job in enumerate(table)}
    return sorted(found, key=lambda job: order[job.id])


def _head(title: str) -> str:
    """``Re-roll turn 13`` of ``Re-roll turn 13 · Qiqi sleeps.``."""
    return title.split(" · ", 1)[0].strip()


def job_phrase(title: str) -> str:
    """``the re-roll of turn 13`` for the job titled ``Re-roll turn 13 · …``."""
    head = _head(title)
    verb, _, rest = head.partition(" ")
    noun = _NOUNS.get(verb)
    if noun is not None and rest:
        return f"the {noun} of {rest}"
    return f"the job {head!r}" if head else "the job"


def short_name(title: str) -> str:
    """``turn 13`` for the job titled ``Re-roll turn 13 · …`` (its head when it names no turn)."""
    head = _head(title)
    verb, _, rest = head.partition(" ")
    return rest if verb in _NOUNS and rest else head


def _and(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _jobs(count: int) -> str:
    return f"{count:,} job{'s' if count != 1 else ''}"


def cancel_question(titles: Sequence[str], following: int) -> tuple[str, str]:
    """The title and the question before cancelling the jobs titled ``titles`` and the
    ``following`` jobs that continue from them."""
    if len(titles) == 1:
        what, pronoun = job_phrase(titles[0]), "it"
    else:
        what, pronoun = f"the {len(titles)} selected jobs", "them"
    continues = "continues" if following == 1 else "continue"
    return ("Cancel jobs", f"Cancel {what} and the {_jobs(following)} that {continues} from {pronoun}?\n\n"
            f"Nothing is made for the turns after {pronoun} until they are queued again (Retry on "
            f"the cancelled job queues them again with it).")


def ask_yes_or_cancel(parent: QWidget, title: str, text: str) -> bool:
    """The question in a box of its own: Yes, or Cancel (the default)."""
    answer = QMessageBox.question(parent, title, text, QMessageBox.StandardButton.Yes
                                  | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
    return answer == QMessageBox.StandardButton.Yes


@dataclass(frozen=True)
class CancelOutcome:
    """What one press of Cancel did: the titles of the selected jobs cancelled at once, of
    those asked to stop (they were running: the jobs after them go when they stop), and how
    many waiting jobs went with them."""

    cancelled: tuple[str, ...] = ()
    stopping: tuple[str, ...] = ()
    followers: int = 0

    def words(self) -> str:
        """One line for the status bar: ``Cancelled 10 jobs: turn 13 and the 9 after it.``
        ("" when no waiting job was cancelled: a running one says so itself when it stops)."""
        roots = [short_name(title) for title in self.cancelled]
        if not roots:
            return ""
        if not self.followers:
            return f"Cancelled {_and(roots)}."
        pronoun = "it" if len(roots) == 1 else "them"
        return (f"Cancelled {_jobs(len(roots) + self.followers)}: {', '.join(roots)} and the "
                f"{self.followers:,} after {pronoun}.")


def cancel_with_followers(selected: Sequence[str], current: Callable[[str], Any], jobs: Callable[[], list[Any]],
                          cancel: Callable[[str], object], describe: Callable[[Any], str]) -> CancelOutcome:
    """Cancel the ``selected`` jobs that can still be cancelled (on the writer: ``current``
    reads a job as the queue has it now, ``jobs`` the whole queue) and count what went with
    them: the waiting jobs that were cancelled by it."""
    waiting_before = {job.id for job in jobs() if kind_name(job.status) in WAITING}
    cancelled: list[str] = []
    stopping: list[str] = []
    for job_id in selected:
        job = current(job_id)
        if job is None:
            continue
        status = kind_name(job.status)
        if status not in ("queued", "running", "interrupted"):
            continue
        title = describe(job)
        cancel(job_id)
        (stopping if status == "running" else cancelled).append(title)
    chosen = set(selected)
    went = [job for job in jobs() if job.id in waiting_before and job.id not in chosen
            and kind_name(job.status) == "cancelled"]
    return CancelOutcome(tuple(cancelled), tuple(stopping), len(went))
