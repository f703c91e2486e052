"""Decoding the next clips while the current one is encoded.

Each clip is decoded by its own short ffmpeg run; run one after the other on the encoding
thread, the encoder would sit idle during every start-up. A background thread decodes
ahead into a bounded queue instead (a few dozen frames, fewer when they are large: see
:func:`studio.export.memory.prefetch_depth`).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

_END = object()


class _Failure:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class Prefetcher:
    """``with Prefetcher(sources) as ahead: for i in ...: for frame in ahead.clip(): ...``

    ``sources`` are called in order on a worker thread; :meth:`clip` yields the frames of
    the next source. Errors in the worker are raised in the consumer.
    """

    def __init__(self, sources: Sequence[Callable[[], Iterator[np.ndarray]]], depth: int = 48) -> None:
        self._sources = sources
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="export-decode", daemon=True)

    def _put(self, item: Any) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        try:
            for source in self._sources:
                frames = source()
                try:
                    for frame in frames:
                        if not self._put(frame):
                            return
                finally:
                    close = getattr(frames, "close", None)
                    if close is not None:
                        close()
                if not self._put(_END):
                    return
        except BaseException as error:  # handed to the consumer, who raises it
            self._put(_Failure(error))

    def clip(self) -> Iterator[np.ndarray]:
        """The frames of the next source."""
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, _Failure):
                raise item.error
            yield item

    def __enter__(self) -> Prefetcher:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        while self._thread.is_alive():
            try:
                while True:
                    self._queue.get_nowait()
            except queue.Empty:
                pass
            self._thread.join(timeout=0.1)
