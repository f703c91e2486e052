"""Where the studio's own files live (icons, theme, sample stories)."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def resources_dir() -> Path:
    """``resources/`` of the source checkout (the package sits next to it)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        candidate = parent / "resources"
        if candidate.is_dir() and (candidate / "samples").is_dir():
            return candidate
    return here.parents[2] / "resources"


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def repo_projects_dir() -> Path:
    """``projects/`` next to ``resources/``: where the shipped sample project lives."""
    return resources_dir().parent / "projects"
