"""An export stopped by SIGTERM or SIGHUP cleans up before the process ends.

By default those signals end a process on the spot: its ``with`` blocks never run, so the
ffmpeg encoding the export (which runs in a process group of its own, out of reach of a
terminal's signals) went on alone, finishing a file nobody would see, and the export's
work folder stayed behind until the next export into that folder. While an export runs on
the main thread and nothing else handles those signals, :func:`cleaned_up_on_termination`
turns them into an exception instead: the export's blocks kill its ffmpeg processes and
remove its work folder (nothing is ever left under the final name), then the process ends
by the same signal, as it would have without us.

A process killed outright (SIGKILL, the OOM killer) runs no code at all, so nothing here
can help; the kernel does instead. On Linux :mod:`studio.storage.ffmpeg` starts every
ffmpeg through util-linux's ``setpriv --pdeathsig KILL`` (``PR_SET_PDEATHSIG``, set in the
child just before it becomes ffmpeg, so without a ``preexec_fn``, which is not safe in a
process with threads, as the window is): when the thread that started it dies, with its
process, the kernel kills the encoder and the decoders at once. Only the work folder stays
behind, for the next export into that folder to sweep. Where ``setpriv`` is missing (not
Linux, util-linux before 2.33), the encoder still takes the closed pipe for the end of its
input and finishes alone, for a few seconds, into that work folder.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(BaseException):
    """A termination signal, raised where the main thread was, to unwind the export."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def cleaned_up_on_termination() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP (those left to their default action) raise
    :class:`Terminated` in the main thread; once the block has unwound, the process is ended
    by that signal. Off the main thread (an export on a worker thread of the window), where
    Python can't handle signals, this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    ours = [signum for signum in SIGNALS if signal.getsignal(signum) == signal.SIG_DFL]

    def terminate(signum: int, _frame: FrameType | None) -> None:
        for each in ours:  # cleaning up: a second signal must not cut that short
            signal.signal(each, signal.SIG_IGN)
        raise Terminated(signum)

    for signum in ours:
        signal.signal(signum, terminate)
    try:
        yield
    except Terminated as stopped:
        for signum in ours:
            signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), stopped.signum)  # ends the process, as the signal would have
        raise  # pragma: no cover - only were the signal blocked
    finally:
        for signum in ours:
            signal.signal(signum, signal.SIG_DFL)
