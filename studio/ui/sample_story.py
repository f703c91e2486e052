"""The first-run sample: the shipped project, or one built from a sample story file.

A sample story is AnimeGamer's line format (one turn per line, ``#`` comments) with one
addition: ``## branch after N`` starts an alternative branch continuing from turn N of
the main branch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from studio.core.commands import AddTurn
from studio.core.errors import StudioError
from studio.core.model import new_id
from studio.storage import Project
from studio.ui.resources import repo_projects_dir, resource

SAMPLE_FILE = "first_story.txt"
SAMPLE_NAME = "Qiqi's first delivery"
_BRANCH_RE = re.compile(r"^##\s*branch after\s+(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class SampleBranch:
    after: int  # 0: from the story's start; N: continues from turn N of the main branch
    lines: tuple[str, ...]


def parse_sample(text: str) -> list[SampleBranch]:
    branches: list[SampleBranch] = []
    after, lines = 0, []
    for raw in text.splitlines():
        line = raw.strip()
        match = _BRANCH_RE.match(line)
        if match:
            branches.append(SampleBranch(after, tuple(lines)))
            after, lines = int(match.group(1)), []
        elif line and not line.startswith("#"):
            lines.append(line)
    branches.append(SampleBranch(after, tuple(lines)))
    return [b for b in branches if b.lines]


def build_sample(project: Project, text: str) -> list[str]:
    """Add the sample's turns to ``project``; returns the leaf ids (one per branch)."""
    branches = parse_sample(text)
    if not branches:
        raise StudioError("The sample story holds no turns.")
    main: list[str] = []
    leaves: list[str] = []
    for index, branch in enumerate(branches):
        if index and not 0 <= branch.after <= len(main):
            raise StudioError(f"'## branch after {branch.after}': the main branch has {len(main)} turns.")
        parent = project.tree.root_id if branch.after == 0 else main[branch.after - 1]
        for line in branch.lines:
            node_id = new_id()
            project.apply(AddTurn(parent, line, node_id=node_id), undoable=False)
            if index == 0:
                main.append(node_id)
            parent = node_id
        leaves.append(parent)
    return leaves


def create_with_defaults(path: Path, name: str | None = None) -> Project:
    """A new project with the default cast and world, or an empty one if those can't load."""
    try:
        from studio.composition import default_cast_and_world

        cast, world = default_cast_and_world()
    except (ImportError, StudioError):
        cast, world = (), ()
    return Project.create(path, name=name, cast=cast, locations=world)


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
    """Create the sample project under ``folder`` from ``resources/samples``."""
    target = folder / "Sample.kamishibai"
    text = resource("samples", SAMPLE_FILE).read_text(encoding="utf-8")
    project = create_with_defaults(target, SAMPLE_NAME)
    build_sample(project, text)
    return project
