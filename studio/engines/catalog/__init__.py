"""The catalogue: each engine's :class:`~studio.engines.info.EngineInfo`, settings and checks.

These modules are light (no numpy, no torch, no engine package): the app lists engines,
checks them and renders their settings before any engine is imported. One module per
engine; the composition root registers them.
"""
