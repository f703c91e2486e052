"""The composition root: the one place that names concrete engines.

Engines are registered by their catalogue info; an engine's package is imported only when
an engine is created, so that listing and checking engines costs nothing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from studio.engines.catalog import animegamer as animegamer_catalog
from studio.engines.catalog import customx as customx_catalog
from studio.engines.catalog import mini as mini_catalog
from studio.engines.catalog import sketch as sketch_catalog
from studio.engines.registry import EngineRegistry
from studio.shipped import shipped

if TYPE_CHECKING:
    from studio.core.model import CastMember, Location
    from studio.storage import Project

DEFAULT_ENGINE = "sketch"

ENGINE_INFOS = (sketch_catalog.INFO, mini_catalog.INFO, animegamer_catalog.INFO, customx_catalog.INFO)
"""Every engine the app offers (each info names its entry point, imported on first use)."""


def default_registry() -> EngineRegistry:
    registry = EngineRegistry(source="studio.composition:default_registry")
    for info in ENGINE_INFOS:
        registry.register(info)
    return registry


def default_cast_and_world() -> tuple[tuple[CastMember, ...], tuple[Location, ...]]:
    """The cast and locations a new project starts with (from resources/)."""
    from studio.engines.sketch.defaults import load_default_cast, load_default_world

    return load_default_cast(), load_default_world()


def create_project(path: str | os.PathLike[str], name: str | None = None) -> Project:
    """A new project seeded with the default cast and world."""
    from studio.storage import Project

    cast, world = default_cast_and_world()
    return Project.create(path, name=name, cast=cast, locations=world)


def default_checkpoints() -> Path:
    """``checkpoints/`` beside the app: the shipped weights and the user's converted ones."""
    return shipped("checkpoints")


SAMPLE_STORY = "first_story.txt"
SAMPLE_NAME = "Qiqi's first delivery"


def create_sample_project(path: str | os.PathLike[str]) -> Project:
    """The sample project: the default cast and world and the sample story's branches
    (no takes yet; generate them with the worker's ``fill``)."""
    from studio.storage.demo_import import import_demo

    project = create_project(path, name=SAMPLE_NAME)
    try:
        import_demo(project, shipped("resources") / "samples" / SAMPLE_STORY)
    except BaseException:
        project.close()
        raise
    return project
