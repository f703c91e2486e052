"""Engines by name: their static info, a factory imported on first use, and their checks."""

from __future__ import annotations

import importlib
import logging

from studio.engines.base import Engine, EngineError, EngineFactory, EngineLoadError
from studio.engines.config import EngineConfig
from studio.engines.info import EngineInfo, EngineVocabulary
from studio.engines.install_hints import ENGINES_INSTALL
from studio.engines.requirements import Requirement, RequirementKind

log = logging.getLogger(__name__)


def import_entry_point(info: EngineInfo) -> EngineFactory:
    """The engine class that ``info.entry_point`` ("package.module:Class") names."""
    module_name, _, attr = info.entry_point.partition(":")
    try:
        module = importlib.import_module(module_name)
        factory: EngineFactory = getattr(module, attr)
    except ImportError as error:
        raise EngineLoadError(f"The {info.name} engine can't be imported: {error}.",
                              hint=f"Install the engines' libraries {ENGINES_INSTALL}."
                              ) from None
    except AttributeError:
        raise EngineLoadError(f"The {info.name} engine's entry point {info.entry_point!r} names nothing.") from None
    return factory


class EngineRegistry:
    """Engines by name. The app's composition root registers the concrete engines.

    ``source`` names a function (``"package.module:function"``) that builds this same
    registry: an engine process calls it to get the engines in the child. A registry
    without one (factories that are closures, as in tests) runs engines in-process only.
    """

    def __init__(self, source: str = "") -> None:
        self.source = source
        self._infos: dict[str, EngineInfo] = {}
        self._factories: dict[str, EngineFactory | None] = {}

    def register(self, info: EngineInfo, factory: EngineFactory | None = None) -> None:
        """Register ``info``; ``factory`` defaults to importing ``info.entry_point`` on first use."""
        self._infos[info.name] = info
        self._factories[info.name] = factory

    def names(self) -> list[str]:
        return sorted(self._infos)

    def infos(self) -> list[EngineInfo]:
        return [self._infos[name] for name in self.names()]

    def __contains__(self, name: object) -> bool:
        return name in self._infos

    def info(self, name: str) -> EngineInfo:
        try:
            return self._infos[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            raise EngineError(f"Unknown engine {name!r}.", hint=f"Available engines: {known}.") from None

    def create(self, name: str, config: EngineConfig | None = None) -> Engine:
        info = self.info(name)
        factory = self._factories.get(name) or import_entry_point(info)
        return factory(self.config_for(name, config))

    def config_for(self, name: str, config: EngineConfig | None = None) -> EngineConfig:
        """``config`` as engine ``name`` gets it (CPU-only engines stay on the CPU)."""
        chosen = config if config is not None else EngineConfig()
        return chosen.adapted_to(self.info(name).capabilities.devices)

    def check(self, name: str, config: EngineConfig | None = None) -> list[Requirement]:
        """Every reason ``name`` can't run with ``config`` ([] when it can). Never raises
        for a broken check: its error becomes a requirement."""
        info = self.info(name)
        try:
            return list(info.check(self.config_for(name, config)))
        except Exception as error:  # a check must not take the app down
            log.exception("checking engine %s failed", name)
            return [Requirement(RequirementKind.CONFIG, f"Checking the {name} engine failed: "
                                f"{type(error).__name__}: {error}")]

    def vocabulary(self, name: str) -> EngineVocabulary:
        try:
            return self.info(name).vocabulary()
        except Exception:  # completions are a convenience
            log.exception("reading the vocabulary of %s failed", name)
            return EngineVocabulary()


def registry_from_source(source: str) -> EngineRegistry:
    """The registry that ``source`` (``"package.module:function"``, our own code) builds."""
    module_name, _, attr = source.partition(":")
    builder = getattr(importlib.import_module(module_name), attr)
    registry = builder()
    if not isinstance(registry, EngineRegistry):
        raise EngineLoadError(f"{source} did not build an engine registry.")
    return registry
