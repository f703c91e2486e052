"""What the welcome page says about the engines: which can run on this computer, and why not.

The page takes plain :class:`EngineAvailability` rows; :func:`engine_availability` is the
one place they come from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class EngineAvailability(NamedTuple):
    name: str
    available: bool
    reasons: Sequence[str] = ()


def engine_availability(registry: Any) -> list[EngineAvailability]:
    """Every registered engine, each reported as able to run, with no reasons.

    Placeholder until ``kamishibai doctor`` (engine protocol v2) exists: it will know each
    engine's real answer (its ``check()`` reasons: missing weights, no GPU, no torch), and
    this function is to return its data instead.
    """
    names = registry.names() if registry is not None else []
    return [EngineAvailability(name, True, ()) for name in names]
