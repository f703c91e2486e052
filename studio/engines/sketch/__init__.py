"""The sketch engine: a procedural anime world (world rules + a numpy/Pillow 2D renderer).

Instant and deterministic on the CPU: the studio's draft engine, the source of training
data for ``mini`` and the ground truth for evaluating it. Nothing is registered here; the
app's composition root does ``registry.register("sketch", SketchEngine)``.
"""

from studio.engines.sketch.defaults import load_default_cast, load_default_world
from studio.engines.sketch.engine import ENGINE_NAME, ENGINE_VERSION, SketchEngine
from studio.engines.sketch.sheet import render_contact_sheet

__all__ = [
    "ENGINE_NAME",
    "ENGINE_VERSION",
    "SketchEngine",
    "load_default_cast",
    "load_default_world",
    "render_contact_sheet",
]
