"""Helpers shared by the CLI's subcommands."""

from __future__ import annotations

import json
import sys
from typing import Any

from studio.core.errors import StudioError
from studio.core.tree import StoryTree
from studio.storage import Project


def open_project(path: str) -> Project:
    return Project.open(path)


def resolve_node(tree: StoryTree, ref: str) -> str:
    """A node id, a unique id prefix, or 'root'."""
    if ref in ("root", "start"):
        return tree.root_id
    if ref in tree.nodes:
        return ref
    matches = [node_id for node_id in tree.nodes if node_id.startswith(ref)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise StudioError(f"No node {ref!r} in this project.", hint="`kamishibai tree PATH` lists the node ids.")
    raise StudioError(f"{ref!r} matches {len(matches)} nodes; give more characters of the id.")


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
