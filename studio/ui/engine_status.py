"""What the welcome page says about the engines: which can run on this computer, and why not.

The page takes plain :class:`EngineAvailability` rows; :func:`engine_availability` makes
them from ``kamishibai doctor``'s engine report (each engine's own ``check``: missing
weights with their paths, no GPU, not enough memory, a missing package). Each row carries a
one-line summary ("ready", "9 weight files missing") for the page to show, the reasons
themselves behind its Details: an engine missing all its weights listed one line per file,
and nineteen of them filled a page 1,444 pixels tall.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from studio.doctor import engine_reports
from studio.engines.config import EngineConfig
from studio.engines.registry import EngineRegistry
from studio.engines.requirements import Requirement, RequirementKind


class EngineAvailability(NamedTuple):
    name: str
    available: bool
    reasons: Sequence[str] = ()
    summary: str = ""
    """One line saying whether it runs and, if not, what it lacks ('' : said from the rest)."""


def _count(number: int, one: str, many: str) -> str:
    return f"1 {one}" if number == 1 else f"{number:,} {many}"


def engine_summary(available: bool, reasons: Sequence[Requirement]) -> str:
    """One line for an engine: "ready", or what it lacks, by kind ("needs a CUDA GPU; 9 weight
    files missing"): the machine's shortfall first, said as the check says it, then files and
    packages counted, then the rest, in lower case after the semicolon."""
    if available:
        return "ready"
    # the machine's shortfall first: it decides whether the engine can run here at all ("needs a CUDA
    # GPU" came after "12 weight files missing", which no copy of the weights would cure)
    machine = (RequirementKind.DEVICE, RequirementKind.MEMORY)
    parts = [r.message.rstrip(".") for r in reasons if r.kind in machine]
    files = [r for r in reasons if r.kind is RequirementKind.FILE]
    if files:
        parts.append(_count(len(files), "weight file", "weight files") + " missing or unreadable")
    packages = [r for r in reasons if r.kind is RequirementKind.PACKAGE]
    if packages:
        parts.append(_count(len(packages), "package", "packages") + " missing")
    parts += [r.message.rstrip(".") for r in reasons
              if r.kind not in (*machine, RequirementKind.FILE, RequirementKind.PACKAGE)]
    return "; ".join([*parts[:1], *(_after_semicolon(part) for part in parts[1:])]) or "cannot run"


_COMMON_FIRST_WORDS = frozenset({"The", "A", "An", "This", "It", "Its", "No", "Not", "Only", "There", "Too"})
"""Sentence openings written in lower case when a reason goes on after a semicolon; a name
("AnimeGamer", "CUDA", "Mistral") keeps its capital."""


def _after_semicolon(part: str) -> str:
    first = part.split(" ", 1)[0]
    return part[:1].lower() + part[1:] if first in _COMMON_FIRST_WORDS else part


def row_summary(engine: EngineAvailability) -> str:
    """The line the page shows for ``engine``: its own summary, else one made from its state."""
    if engine.summary:
        return engine.summary
    if engine.available:
        return "ready"
    return _count(len(engine.reasons), "problem", "problems") if engine.reasons else "cannot run"


def engine_availability(registry: EngineRegistry, config: EngineConfig) -> list[EngineAvailability]:
    """Every registered engine with the reasons it can't run with ``config`` (none if it can)."""
    rows: list[EngineAvailability] = []
    for report in engine_reports(registry, config):
        reasons = [f"{r.message} {r.hint}".strip() for r in report.reasons]
        summary = engine_summary(report.available, report.reasons)
        if report.available and report.copy:  # a chosen folder without its weights: the app's own run
            summary = f"ready, with the app's own weights ({report.folder})"
        rows.append(EngineAvailability(report.name, report.available, reasons, summary))
    return rows
