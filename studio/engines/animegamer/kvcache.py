"""KV caches of prompt prefixes, reused along a branch.

A prompt is a list of segments (BOS, then one segment per history turn); a segment's key
is a hash of everything that determines its keys and values (character, ids,
representation). Generating the next turn of a branch, re-rolling a turn or forking it
starts from the longest cached prefix and runs only the segments after it. Rotary
positions are baked into cached keys, so only an exact prefix can be reused: when the
history window slides past a turn, the prompt is encoded again.

An entry whose keys are a prefix of the new prompt is handed over and extended in place;
an entry that diverges is copied up to the common prefix, so that it stays valid for the
branch it came from.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Keys = tuple[str, ...]


@dataclass(slots=True)
class CachedPrefix:
    keys: Keys
    lengths: tuple[int, ...]
    """Token count of each segment."""
    cache: Any
    """A transformers ``DynamicCache`` holding exactly ``sum(lengths)`` positions."""

    @property
    def length(self) -> int:
        return sum(self.lengths)


def crop(cache: Any, length: int) -> None:
    """Drop the positions after ``length`` (in place)."""
    extra = cache.get_seq_length() - length
    if extra > 0:
        cache.crop(-extra)


class PrefixCache:
    """At most ``capacity`` prefixes, least recently used first out."""

    def __init__(self, capacity: int = 4) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[Keys, CachedPrefix] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()

    def take(self, keys: Sequence[str]) -> CachedPrefix | None:
        """The longest cached prefix of ``keys`` (owned by the caller until :meth:`put`)."""
        wanted = tuple(keys)
        best: CachedPrefix | None = None
        best_common = 0
        for entry in self._entries.values():
            common = _common(entry.keys, wanted)
            if common > best_common:
                best, best_common = entry, common
        if best is None:
            return None
        if best_common == len(best.keys):
            del self._entries[best.keys]
            return best
        copied = copy.deepcopy(best.cache)
        lengths = best.lengths[:best_common]
        crop(copied, sum(lengths))
        return CachedPrefix(best.keys[:best_common], lengths, copied)

    def put(self, prefix: CachedPrefix) -> None:
        crop(prefix.cache, prefix.length)
        self._entries.pop(prefix.keys, None)
        self._entries[prefix.keys] = prefix
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)


def _common(a: Keys, b: Keys) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count
