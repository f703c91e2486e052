"""Posters and clip frames, decoded off the GUI thread and kept in LRU caches.

Decoding runs on QThreadPool workers (QImage may be built on any thread; QPixmap only on
the GUI thread, so the caches hold QImages). A request for something not yet loaded
returns None and schedules the load; :attr:`ready` fires with the path when it lands, and
views repaint then.

Posters load on a pool of their own (:data:`POSTER_THREADS`): on the shared pool, which
has one thread per core, the cards' posters of a project just opened queued behind the
episode preview's clip decodes (a tenth to a third of a second each, several at once), and
the cards stayed grey for seconds while a poster is a few milliseconds' read.
"""

from __future__ import annotations

import os
import sys
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QRunnable, QSize, QThreadPool, Signal
from PySide6.QtGui import QImage

from studio.ui.gui_tuning import lower_this_thread
from studio.ui.node_summary import PosterState

POSTER_THREADS = 2
"""Threads of the posters' own pool: posters are small PNG reads, never waiting for a clip."""

POSTER_SIZE = QSize(360, 216)
"""Posters are scaled to fit this at load (twice the card's poster box, for HiDPI)."""


FileMark = tuple[int, int, int] | None
"""A file as it was when it failed to load: (inode, size, mtime in ns), None if absent."""


def file_mark(path: str) -> FileMark:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_ino, info.st_size, info.st_mtime_ns


class _Signals(QObject):
    loaded = Signal(str, object, object)  # path, payload (or None on failure), its FileMark before


class _Job(QRunnable):
    def __init__(self, path: str, work: Callable[[str], object], signals: _Signals) -> None:
        super().__init__()
        self.path = path
        self.work = work
        self.signals = signals

    def run(self) -> None:
        lower_this_thread()  # background work: the GUI thread gets the cores first
        mark = file_mark(self.path)  # taken first: a file still being written then is tried again
        try:
            payload = self.work(self.path)
        except Exception:
            payload = None
        try:
            self.signals.loaded.emit(self.path, payload, mark)
        except RuntimeError:
            pass  # the cache was deleted while this ran (its window closed): nobody is waiting


def load_poster(path: str) -> QImage | None:
    """A poster scaled to :data:`POSTER_SIZE`. Decoded and scaled with Pillow, which lets go of
    the GIL while it works (Qt's image calls hold it), so the GUI thread isn't kept waiting."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as opened:
            opened.thumbnail((POSTER_SIZE.width(), POSTER_SIZE.height()), Image.Resampling.LANCZOS)
            picture = opened.convert("RGBA")
    except (OSError, UnidentifiedImageError, ValueError):
        return None
    width, height = picture.size
    data = picture.tobytes()
    image = QImage(data, width, height, 4 * width, QImage.Format.Format_RGBA8888)
    return image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)  # a copy: ``data`` may go


def load_clip(path: str) -> tuple[list[QImage], float] | None:
    """A clip's frames as 32-bit images: they scale and paint several times faster than
    24-bit ones, which Qt would convert on the GUI thread at every paint. The widening is
    done by numpy, which lets go of the GIL while it copies; only the final copy into each
    QImage holds it."""
    import numpy as np

    from studio.storage.media import read_clip

    frames, fps = read_clip(Path(path))
    count, h, w, _ = frames.shape
    wide = np.empty((count, h, w, 4), dtype=np.uint8)
    wide[..., :3] = frames
    wide[..., 3] = 255
    images = [QImage(frame.data, w, h, 4 * w, QImage.Format.Format_RGBX8888).copy() for frame in wide]
    return images, fps


class LoaderCache(QObject):
    """Items loaded by ``work(key)`` on the thread pool, kept most recently used first (a key
    is a file's path for posters and clips). ``threads``: load on a pool of that many
    threads of the cache's own, rather than on the application's shared pool (0)."""

    ready = Signal(str)
    failed = Signal(str)

    def __init__(self, work: Callable[[str], object], capacity: int, parent: QObject | None = None, *,
                 weigh: Callable[[object], int] | None = None, max_bytes: int | None = None,
                 threads: int = 0) -> None:
        super().__init__(parent)
        # an own pool is made first, so that it is deleted (waiting for its loads) before the
        # signals its loads report to
        self.pool = QThreadPool(self) if threads > 0 else QThreadPool.globalInstance()
        if threads > 0:
            self.pool.setMaxThreadCount(threads)
        self._work = work
        self._capacity = capacity
        """The most items kept."""
        self._weigh = weigh
        self._max_bytes = max_bytes
        """The most bytes the items kept may weigh (by ``weigh``); None: no such bound."""
        self._items: OrderedDict[str, object] = OrderedDict()
        self._weights: dict[str, int] = {}
        self._bytes = 0
        self._pending: set[str] = set()
        self._broken: dict[str, FileMark] = {}
        """Paths that failed to load, with their file as it was then: tried again once that
        changes (a clip regenerated, a file or the project folder put back)."""
        self._signals = _Signals(self)
        self._signals.loaded.connect(self._on_loaded)

    def peek(self, path: str) -> object | None:
        item = self._items.get(path)
        if item is not None:
            self._items.move_to_end(path)
        return item

    def request(self, path: str) -> object | None:
        """The cached value, or None after scheduling a load (``ready`` fires later)."""
        if not path:
            return None
        item = self.peek(path)
        if item is None and path not in self._pending and not self.is_broken(path):
            self._load(path)
        return item

    def _load(self, path: str) -> None:
        self._broken.pop(path, None)
        self._pending.add(path)
        self.pool.start(_Job(path, self._work, self._signals))

    def is_pending(self, path: str) -> bool:
        return path in self._pending

    def is_broken(self, path: str) -> bool:
        """Whether ``path`` failed to load (missing or unreadable) and its file is still as it
        was then; one that has changed since is loaded again at its next request."""
        return path in self._broken and file_mark(path) == self._broken[path]

    def retry_changed(self) -> int:
        """Load again each path that failed whose file has changed since (``ready`` or
        ``failed`` then fires for it, so views waiting on it repaint); returns how many.
        For when the window is back in front: a file may have been put back meanwhile."""
        changed = [path for path in self._broken if not self.is_broken(path) and path not in self._pending]
        for path in changed:
            self._load(path)
        return len(changed)

    def _on_loaded(self, path: str, payload: object, mark: FileMark) -> None:
        self._pending.discard(path)
        if payload is None:
            self._broken[path] = mark
            self.failed.emit(path)
            return
        self._keep(path, payload)
        self.ready.emit(path)

    @property
    def held_bytes(self) -> int:
        """What the items kept weigh (0 for a cache that doesn't weigh them)."""
        return self._bytes

    @property
    def max_bytes(self) -> int:
        """The most the items kept may weigh (0: no such bound)."""
        return self._max_bytes or 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, path: object) -> bool:
        return path in self._items

    def _keep(self, path: str, payload: object) -> None:
        """Keep ``payload`` as the most recently used item, then drop the least recently used
        ones past the bounds. The item just kept always stays, even one heavier than the
        whole bound: the view that asked for it shows it from here (see ``ready``), and
        dropping it would have that view ask again, decoding it in a loop."""
        self._drop(path)
        weight = self._weigh(payload) if self._weigh is not None else 0
        self._items[path] = payload
        self._weights[path] = weight
        self._bytes += weight
        while len(self._items) > 1 and self._over_bounds():
            self._drop(next(iter(self._items)))

    def _over_bounds(self) -> bool:
        too_heavy = self._max_bytes is not None and self._bytes > self._max_bytes
        return len(self._items) > self._capacity or too_heavy

    def _drop(self, path: str) -> None:
        if self._items.pop(path, None) is not None:
            self._bytes -= self._weights.pop(path, 0)


POSTER_CACHE_BYTES = 96 * 1024 * 1024
"""What the posters the cache keeps may weigh. A poster is scaled to fit :data:`POSTER_SIZE` at
load, so it weighs at most 360x216 32-bit pixels (311 KB; 292 KB for a 16:9 clip's, whatever
the clip's own size): this keeps at least 320 of the largest, more than a canvas of 1200x700
pixels shows at a quarter of the default zoom (some 280 cards), and more of smaller ones. It held 600 posters whatever
they weighed (up to 187 MB, on top of the clip cache); a poster dropped is decoded again, in
a few milliseconds off the GUI thread, when a card asks for it."""


def poster_bytes(poster: object) -> int:
    """The bytes of a decoded poster (:func:`load_poster`'s value), 0 for anything else."""
    return poster.sizeInBytes() if isinstance(poster, QImage) else 0


class PosterCache(LoaderCache):
    """Posters scaled for the cards, the most recently used first, bounded by what they weigh
    (:data:`POSTER_CACHE_BYTES`). ``capacity`` also bounds how many it keeps (no bound by
    default). The poster just loaded always stays: the card that asked for it shows it next.
    Loads run on the cache's own pool (:data:`POSTER_THREADS`), never behind clip decodes; the
    cards ask as they are painted, so the visible ones are loaded first."""

    def __init__(self, parent: QObject | None = None, capacity: int | None = None,
                 max_bytes: int = POSTER_CACHE_BYTES) -> None:
        super().__init__(load_poster, capacity if capacity is not None else sys.maxsize, parent,
                         weigh=poster_bytes, max_bytes=max_bytes, threads=POSTER_THREADS)

    def get(self, path: str) -> QImage | None:
        value = self.request(path)
        return value if isinstance(value, QImage) else None

    def state(self, rel: str, path: str) -> PosterState:
        """Where the poster stored as ``rel`` (resolved to ``path``, "" if refused) is: none
        to show, loading, or missing (its file gone, unreadable or outside the project)."""
        if not rel:
            return PosterState.NONE
        if not path or self.is_broken(path):
            return PosterState.MISSING
        return PosterState.LOADING


CLIP_CACHE_BYTES = 192 * 1024 * 1024
"""What the decoded clips the shared cache keeps may weigh: about eight clips of 17 frames at
720x480 (23 MB each), or two of a CustomX clip (93 frames at 624x352, 82 MB). It held 24
clips whatever their size (over 500 MB, on top of what each player holds); a laptop can
afford this, and a clip dropped is decoded again when a view asks for it."""


def clip_bytes(clip: object) -> int:
    """The bytes of a decoded clip's frames (:func:`load_clip`'s value), 0 for anything else."""
    if not isinstance(clip, tuple) or not clip or not isinstance(clip[0], list):
        return 0
    return sum(frame.sizeInBytes() for frame in clip[0] if isinstance(frame, QImage))


class ClipCache(LoaderCache):
    """Decoded clips (frames and fps), the most recently used first, bounded by what their
    frames weigh (:data:`CLIP_CACHE_BYTES`); a clip of 17 frames at 720x480 is about 23 MB.
    ``capacity`` also bounds how many clips it keeps (no bound by default)."""

    def __init__(self, parent: QObject | None = None, capacity: int | None = None,
                 max_bytes: int = CLIP_CACHE_BYTES) -> None:
        super().__init__(load_clip, capacity if capacity is not None else sys.maxsize, parent,
                         weigh=clip_bytes, max_bytes=max_bytes)

    def get(self, path: str) -> tuple[list[QImage], float] | None:
        value = self.request(path)
        return value if isinstance(value, tuple) else None  # (frames, fps), as load_clip makes it
