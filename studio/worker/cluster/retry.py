"""Joining a lost render farm again: after growing delays, or at once when asked.

A cluster whose head restarted (or a network that dropped for a while) answers again
sooner or later; the window's studio then tries joining it on its own, 2 s after the loss,
then 4, 8, 16, 30 and every 60 s, and the cluster status says when the next attempt comes.
"Connect again" tries at once. Never imports Ray: the attempt itself is the caller's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

log = logging.getLogger(__name__)

RETRY_DELAYS_S: tuple[float, ...] = (2.0, 4.0, 8.0, 16.0, 30.0, 60.0)
"""The waits before each attempt to join a lost cluster again; the last one repeats."""
RETRY_HINT = ("The job that was running went back to the queue, and the queued jobs stay queued. The studio "
              "joins the render farm again by itself once its head answers (start the cluster again if it "
              "stopped), or press Connect again.")


class RetrySchedule:
    """Calls ``attempt()`` on a thread of its own after each delay of ``delays`` (the last
    repeating) until it returns True or :meth:`stop` is called. :meth:`now` skips the wait."""

    def __init__(self, attempt: Callable[[], bool], delays: Sequence[float] | None = None) -> None:
        self._attempt = attempt
        self._delays = tuple(delays if delays is not None else RETRY_DELAYS_S) or (RETRY_DELAYS_S[-1],)
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._next_at: float | None = None
        self._attempts = 0
        self._thread = threading.Thread(target=self._run, name="kamishibai-cluster-retry", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def now(self) -> None:
        """Try at once (or right after the attempt under way)."""
        self._wake.set()

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()

    @property
    def attempts(self) -> int:
        """How many attempts were made (the one under way included)."""
        with self._lock:
            return self._attempts

    def retry_in_s(self) -> float | None:
        """Seconds until the next attempt; None while one is under way, or once done."""
        with self._lock:
            next_at = self._next_at
        return None if next_at is None else max(0.0, next_at - time.monotonic())

    @property
    def done(self) -> bool:
        return not self._thread.is_alive() and self._thread.ident is not None

    def join(self, timeout: float | None) -> bool:
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        index = 0
        while not self._stopped.is_set():
            delay = self._delays[min(index, len(self._delays) - 1)]
            with self._lock:
                self._next_at = time.monotonic() + delay
            self._wake.wait(delay)
            self._wake.clear()
            with self._lock:
                self._next_at = None
                if self._stopped.is_set():
                    return
                self._attempts += 1
            try:
                if self._attempt():
                    return
            except Exception:  # an attempt that fails oddly is one more failed attempt
                log.exception("could not join the render farm again")
            index += 1
