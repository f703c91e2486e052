"""Progress reports and cancellation, shared by engines, the worker and export.

Long operations take two callables: ``progress(Progress(step, total))`` after each step,
and ``cancelled()``, polled between steps. :func:`check_cancelled` turns a cancel request
into the :class:`Cancelled` exception, which every caller treats as an outcome, not a
failure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class Cancelled(Exception):  # noqa: N818 - it is an outcome, not a failure
    """Raised inside a long operation when it was cancelled; the job ends as 'cancelled'."""


@dataclass(frozen=True, slots=True)
class Progress:
    """``step`` of ``total`` done. ``preview`` optionally carries frames (uint8 T x H x W x 3)
    of the clip as it is being made, from engines that declare preview frames."""

    step: int
    total: int
    message: str = ""
    preview: object | None = None

    @property
    def fraction(self) -> float:
        return 0.0 if self.total <= 0 else max(0.0, min(1.0, self.step / self.total))


ProgressCallback = Callable[[Progress], None]
CancelCheck = Callable[[], bool]


def no_progress(_: Progress) -> None:
    """A progress callback that ignores everything."""


def never_cancelled() -> bool:
    return False


def check_cancelled(cancelled: CancelCheck) -> None:
    """Call between steps: raises :class:`Cancelled` once the operation is cancelled."""
    if cancelled():
        raise Cancelled()
