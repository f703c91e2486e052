"""The sketch engine's settings: size, frame count, fps and an optional camera override."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from studio.engines.base import EngineError
from studio.engines.sketch.vocabulary import CameraMode

DEFAULT_HEIGHT = 480
DEFAULT_WIDTH = 720
DEFAULT_FRAMES = 17
DEFAULT_FPS = 8.0
MIN_SIZE, MAX_SIZE = 32, 2160
MIN_FRAMES, MAX_FRAMES = 1, 240
MAX_FPS = 120.0


@dataclass(frozen=True, slots=True)
class SketchSettings:
    height: int = DEFAULT_HEIGHT
    width: int = DEFAULT_WIDTH
    frames: int = DEFAULT_FRAMES
    fps: float = DEFAULT_FPS
    camera: CameraMode | None = None


def _int(settings: Mapping[str, Any], key: str, default: int, low: int, high: int, what: str) -> int:
    value = settings.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise EngineError(f"Sketch setting {key!r} must be a whole number, got {value!r}.")
    try:
        number = float(value)
    except ValueError:
        raise EngineError(f"Sketch setting {key!r} must be a whole number, got {value!r}.") from None
    if not math.isfinite(number) or number != int(number):
        raise EngineError(f"Sketch setting {key!r} must be a whole number, got {value!r}.")
    if not low <= number <= high:
        raise EngineError(f"Sketch {what} must be between {low} and {high}, got {int(number)}.",
                          hint=f"The default is {default}.")
    return int(number)


def read_settings(settings: Mapping[str, Any]) -> SketchSettings:
    """Validate ``context.settings``; raises EngineError with a message that names the bad value."""
    if not isinstance(settings, Mapping):
        raise EngineError(f"Sketch settings must be a mapping, got {type(settings).__name__}.")
    height = _int(settings, "height", DEFAULT_HEIGHT, MIN_SIZE, MAX_SIZE, "height (size)")
    width = _int(settings, "width", DEFAULT_WIDTH, MIN_SIZE, MAX_SIZE, "width (size)")
    frames = _int(settings, "frames", DEFAULT_FRAMES, MIN_FRAMES, MAX_FRAMES, "frame count")
    fps_value = settings.get("fps", DEFAULT_FPS)
    if fps_value is None:
        fps_value = DEFAULT_FPS
    try:
        fps = float(fps_value)
    except (TypeError, ValueError):
        raise EngineError(f"Sketch setting 'fps' must be a number, got {fps_value!r}.") from None
    if isinstance(fps_value, bool) or not math.isfinite(fps) or not 0 < fps <= MAX_FPS:
        raise EngineError(f"Sketch fps must be above 0 and at most {MAX_FPS:g}, got {fps_value!r}.")
    camera_value = settings.get("camera")
    camera: CameraMode | None = None
    if camera_value not in (None, "", "auto", "default"):
        try:
            camera = CameraMode(str(camera_value).strip().lower())
        except ValueError:
            known = ", ".join(m.value for m in CameraMode)
            raise EngineError(f"Unknown sketch camera {camera_value!r}.",
                              hint=f"Use one of: {known}, or auto.") from None
    return SketchSettings(height, width, frames, fps, camera)
