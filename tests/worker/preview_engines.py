"""A registry that an engine process rebuilds by name: the CustomX engine on tiny random
weights (its ``TEST_INFO``, allowed on the CPU), an engine that sends preview frames."""

from __future__ import annotations

from studio.engines.base import Engine, EngineConfig
from studio.engines.registry import EngineRegistry


def registry() -> EngineRegistry:
    """The registry a child process rebuilds (by this function's name)."""
    from studio.engines.catalog.customx import TEST_INFO
    from studio.engines.customx.engine import CustomXEngine

    def factory(config: EngineConfig) -> Engine:
        return CustomXEngine(config, info=TEST_INFO)

    built = EngineRegistry(source=f"{__name__}:registry")
    built.register(TEST_INFO, factory)
    return built
