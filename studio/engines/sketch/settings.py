"""Reading the sketch engine's settings (declared in ``studio.engines.catalog.sketch``)."""

from __future__ import annotations

from studio.engines.catalog.sketch import SketchSettings
from studio.engines.sketch.vocabulary import CameraMode

__all__ = ["SketchSettings", "camera_override"]


def camera_override(settings: SketchSettings) -> CameraMode | None:
    """The camera forced for every turn, or None when the instruction decides ("auto")."""
    return None if settings.camera == "auto" else CameraMode(settings.camera)
