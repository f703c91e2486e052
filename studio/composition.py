"""The composition root: the one place that names concrete engines.

Engines are registered by their catalogue info; an engine's package is imported only when
an engine is created, so that listing and checking engines costs nothing.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studio.engines.catalog import animegamer as animegamer_catalog
from studio.engines.catalog import customx as customx_catalog
from studio.engines.catalog import mini as mini_catalog
from studio.engines.catalog import sketch as sketch_catalog
from studio.engines.registry import EngineRegistry
from studio.shipped import shipped

if TYPE_CHECKING:
    import numpy as np

    from studio.core.model import CastMember, Location
    from studio.engines.sketch.pictures import SketchPictures as Drawer
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


class SketchPictures:
    """The sketch engine's drawing of the cast and the places, for the window's lists (see
    :mod:`studio.engines.sketch.pictures`); the engine is imported at the first picture, on
    the thread that draws it, not when the window opens."""

    def __init__(self) -> None:
        self._drawer: Drawer | None = None
        self._lock = threading.Lock()

    def _loaded(self) -> Drawer:
        with self._lock:
            if self._drawer is None:
                from studio.engines.sketch.pictures import SketchPictures as Drawer

                self._drawer = Drawer()
            return self._drawer

    def character(self, name: str, look: Mapping[str, Any]) -> np.ndarray | None:
        return self._loaded().character(name, look)

    def place(self, name: str) -> np.ndarray | None:
        return self._loaded().place(name)


_PICTURES = SketchPictures()


def sketch_pictures() -> SketchPictures:
    """The app's one drawer of cast and place pictures (what it drew is kept for every window)."""
    return _PICTURES


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
