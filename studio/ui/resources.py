"""Where the studio's own files live (icons, theme, sample stories)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from studio.shipped import BESIDE, shipped


@cache
def resources_dir() -> Path:
    """``resources/``: beside the package in a checkout, inside it once installed."""
    return shipped("resources")


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def repo_projects_dir() -> Path:
    """``projects/`` of the source checkout, beside the package: where ``make run`` builds the
    sample project (an installed copy has none)."""
    return BESIDE / "projects"
