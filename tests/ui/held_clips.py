"""A clip cache whose decoding of some clips waits until the test lets them go: a clip still
decoding for as long as a test needs, whatever the machine's speed."""

from __future__ import annotations

import sys
import threading

from studio.ui.media_cache import CLIP_CACHE_BYTES, ClipCache, LoaderCache, clip_bytes, load_clip

HOLD_LIMIT_S = 30.0
"""A held clip decodes anyway after this long (a test that fails leaves no thread waiting)."""


class HeldClips(ClipCache):
    """A :class:`ClipCache` that decodes the clips in ``held`` only once :meth:`let_go` is called."""

    def __init__(self, held: set[str]) -> None:
        LoaderCache.__init__(self, self._decode, sys.maxsize, weigh=clip_bytes, max_bytes=CLIP_CACHE_BYTES)
        self._gates = {path: threading.Event() for path in held}

    def _decode(self, path: str) -> object:
        gate = self._gates.get(path)
        if gate is not None:
            gate.wait(HOLD_LIMIT_S)
        return load_clip(path)

    def let_go(self) -> None:
        for gate in self._gates.values():
            gate.set()
