"""Camera behaviours (after AniX): static, pan, follow, zoom and orbit, as per-frame offsets.

The world is a stack of layers at different depths. A camera move is a horizontal shift
per layer (in frame widths; far layers shift less, which is the parallax), a zoom factor
and, for orbit, an extra body yaw so the character turns as the camera circles it.
"""

from __future__ import annotations

from dataclasses import dataclass

from studio.engines.sketch.poses import smoothstep
from studio.engines.sketch.scenery import LAYER_FACTORS
from studio.engines.sketch.vocabulary import CameraMode

PAN_DISTANCE = 0.3
ZOOM_MAX = 1.4
ORBIT_SHIFTS: tuple[float, float, float, float] = (0.0, 0.28, 0.12, -0.14)
"""Orbit shift per layer (sky, far, mid, near) over the whole move: layers behind the
character slide one way, the ground in front of it the other way."""


@dataclass(frozen=True, slots=True)
class CameraFrame:
    cam_x: float
    """Camera position in frame widths (the near layer and the character move by -cam_x)."""
    layer_shifts: tuple[float, float, float, float]
    """Shift of the sky, far, mid and near layers, in frame widths."""
    zoom: float = 1.0
    yaw: float = 0.0


def _parallax(cam: float) -> tuple[float, float, float, float]:
    """Layer shifts for a camera at ``cam``: the sky stays, nearer layers move more."""
    far, mid, near = LAYER_FACTORS
    return (0.0, far * cam, mid * cam, near * cam)


def camera_frame(mode: CameraMode, t: float, travelled: float, direction: int, zoom_out: bool = False
                 ) -> CameraFrame:
    """The camera at clip fraction ``t``; ``travelled`` is how far the character has moved so far."""
    if mode == CameraMode.FOLLOW:
        cam = travelled if abs(travelled) > 1e-9 else 0.06 * t * direction
        return CameraFrame(cam, _parallax(cam))
    if mode == CameraMode.PAN:
        cam = PAN_DISTANCE * direction * smoothstep(t)
        return CameraFrame(cam, _parallax(cam))
    if mode == CameraMode.ZOOM:
        k = smoothstep(t)
        zoom = ZOOM_MAX - (ZOOM_MAX - 1.0) * k if zoom_out else 1.0 + (ZOOM_MAX - 1.0) * k
        return CameraFrame(0.0, (0.0, 0.0, 0.0, 0.0), zoom=zoom)
    if mode == CameraMode.ORBIT:
        a = (2.0 * smoothstep(t) - 1.0) * direction
        sky, far, mid, near = ORBIT_SHIFTS
        return CameraFrame(0.0, (sky * a, far * a, mid * a, near * a), zoom=1.08, yaw=45.0 * a)
    return CameraFrame(0.0, (0.0, 0.0, 0.0, 0.0))
