"""What the welcome page says about the engines: which can run on this computer, and why not.

The page takes plain :class:`EngineAvailability` rows; :func:`engine_availability` makes
them from ``kamishibai doctor``'s engine report (each engine's own ``check``: missing
weights with their paths, no GPU, not enough memory, a missing package).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from studio.doctor import engine_reports
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry


class EngineAvailability(NamedTuple):
    name: str
    available: bool
    reasons: Sequence[str] = ()


def engine_availability(registry: EngineRegistry, config: EngineConfig) -> list[EngineAvailability]:
    """Every registered engine with the reasons it can't run with ``config`` (none if it can)."""
    rows: list[EngineAvailability] = []
    for report in engine_reports(registry, config):
        reasons = [f"{r.message} {r.hint}".strip() for r in report.reasons]
        rows.append(EngineAvailability(report.name, report.available, reasons))
    return rows
