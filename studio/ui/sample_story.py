"""The first-run sample: the project shipped in ``projects/``, or one built in the user's
data folder from the sample story (made by the services the app entry hands in)."""

from __future__ import annotations

from pathlib import Path

from studio.storage import Project
from studio.ui.resources import repo_projects_dir
from studio.ui.services import AppServices

SAMPLE_FOLDER = "Sample.kamishibai"


def shipped_sample() -> Path | None:
    """A sample project shipped in ``projects/`` (the first ``*.kamishibai`` folder)."""
    folder = repo_projects_dir()
    if not folder.is_dir():
        return None
    preferred = folder / "sample.kamishibai"
    if (preferred / "project.db").is_file():
        return preferred
    found = sorted(p for p in folder.glob("*.kamishibai") if (p / "project.db").is_file())
    return found[0] if found else None


def create_sample_project(services: AppServices, folder: Path) -> Project:
    """Create the sample project under ``folder`` (its takes are generated afterwards)."""
    return services.create_sample_project(folder / SAMPLE_FOLDER)
