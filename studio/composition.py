"""The composition root: the one place that names concrete engines.

Engines are registered by name with factories that import their package only when an
engine is created, so that listing engines costs nothing.
"""

from __future__ import annotations

import importlib

from studio.engines.base import Engine, EngineRegistry

DEFAULT_ENGINE = "sketch"

_ENGINES: dict[str, tuple[str, str]] = {
    "sketch": ("studio.engines.sketch", "SketchEngine"),
}


def _factory(module: str, attr: str):  # type: ignore[no-untyped-def]
    def create() -> Engine:
        return getattr(importlib.import_module(module), attr)()  # type: ignore[no-any-return]

    return create


def default_registry() -> EngineRegistry:
    registry = EngineRegistry()
    for name, (module, attr) in _ENGINES.items():
        registry.register(name, _factory(module, attr))
    return registry


def default_cast_and_world():  # type: ignore[no-untyped-def]
    """The cast and locations a new project starts with (from resources/)."""
    defaults = importlib.import_module("studio.engines.sketch.defaults")
    return defaults.load_default_cast(), defaults.load_default_world()


def create_project(path, name=None):  # type: ignore[no-untyped-def]
    """A new project seeded with the default cast and world."""
    from studio.storage import Project

    cast, world = default_cast_and_world()
    return Project.create(path, name=name, cast=cast, locations=world)
