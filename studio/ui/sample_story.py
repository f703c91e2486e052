"""The first-run sample: the project shipped in ``projects/``, or one built in the user's
data folder from the sample story (see ``studio.composition.create_sample_project``)."""

from __future__ import annotations

from pathlib import Path

from studio.storage import Project
from studio.ui.resources import repo_projects_dir

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


def create_sample_project(folder: Path) -> Project:
    """Create the sample project under ``folder`` (its takes are generated afterwards)."""
    from studio.composition import create_sample_project as create

    return create(folder / SAMPLE_FOLDER)
