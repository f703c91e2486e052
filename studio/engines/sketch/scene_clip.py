"""Scene clips of the built-in world: a location's background, without characters, seen
through one of the sketch camera's paths (static, pan, follow, zoom, orbit).

Engines that place a character in a world given as a video (CustomX) use these clips for the
default locations. A clip is deterministic (the same location, time, camera and size always
give the same frames) and cheap: the location's layers are built once and cached, and each
frame is a few Pillow crops and pastes. Frames are returned as ``T x H x W x 3`` uint8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from studio.engines.base import EngineError
from studio.engines.sketch.camera import camera_frame
from studio.engines.sketch.render import compose_background, frame_times
from studio.engines.sketch.scenery import build_scene
from studio.engines.sketch.vocabulary import LOCATION_BY_NAME, TIMES_OF_DAY, CameraMode

FOLLOW_TRAVEL = 0.35
"""How far (in frame widths) the unseen character walks over a follow shot."""
ZOOM_TARGET_HEIGHT = 0.6
"""Where a zoom closes in, as a fraction of the frame height (about a standing character's chest)."""


@dataclass(frozen=True, slots=True)
class SceneShot:
    """Which built-in location, at what time, through which camera path, at what size."""

    location: str
    time: str = "day"
    camera: CameraMode = CameraMode.STATIC
    frames: int = 33
    height: int = 352
    width: int = 624
    direction: int = 1
    zoom_out: bool = False

    def __post_init__(self) -> None:
        if self.location not in LOCATION_BY_NAME:
            known = ", ".join(sorted(LOCATION_BY_NAME))
            raise EngineError(f"The sketch world has no location {self.location!r}.", hint=f"Known: {known}.")
        if self.time not in TIMES_OF_DAY:
            raise EngineError(f"Unknown time of day {self.time!r}.", hint=f"Use one of {', '.join(TIMES_OF_DAY)}.")
        if not (1 <= self.frames <= 4096 and 16 <= self.height <= 2160 and 16 <= self.width <= 4096):
            raise EngineError(f"A scene clip of {self.frames} frames at {self.height} x {self.width} is out of range.")


def camera_of(text: str) -> CameraMode:
    """The camera path an instruction's Camera field asks for (static when it names none)."""
    words = text.strip().lower()
    for mode in (CameraMode.ORBIT, CameraMode.FOLLOW, CameraMode.ZOOM, CameraMode.PAN, CameraMode.STATIC):
        if mode.value in words:
            return mode
    if "track" in words:
        return CameraMode.FOLLOW
    return CameraMode.STATIC


def location_of(params: Mapping[str, Any], name: str) -> str | None:
    """The built-in location a world location stands for (its ``scene`` parameter, else its
    name), or None when it is not one of the sketch world's."""
    scene = params.get("scene")
    for candidate in (scene, name):
        key = str(candidate or "").strip().lower()
        if key in LOCATION_BY_NAME:
            return key
    return None


def _zoomed(image: Image.Image, zoom: float) -> Image.Image:
    if zoom <= 1.0001:
        return image
    w, h = image.size
    cw, ch = w / zoom, h / zoom
    left = (w - cw) / 2
    top = min(max(0.0, ZOOM_TARGET_HEIGHT * h - ch / 2), h - ch)
    return image.resize((w, h), Image.Resampling.BILINEAR, box=(left, top, left + cw, top + ch))


def render_scene_clip(shot: SceneShot) -> np.ndarray:
    """The frames of ``shot``: the location's layers moved by the camera path, no characters."""
    scene = build_scene(shot.location, shot.time, shot.height, shot.width)
    direction = 1 if shot.direction >= 0 else -1
    out = np.empty((shot.frames, shot.height, shot.width, 3), dtype=np.uint8)
    previous: tuple[tuple[int, ...], float] | None = None
    for index, t in enumerate(frame_times(shot.frames)):
        travelled = FOLLOW_TRAVEL * direction * t
        cam = camera_frame(shot.camera, t, travelled, direction, shot.zoom_out)
        key = (tuple(round(s * shot.width) for s in cam.layer_shifts), round(cam.zoom, 5))
        if key == previous:
            out[index] = out[index - 1]
            continue
        image = _zoomed(compose_background(scene, cam, shot.width, False), cam.zoom)
        out[index] = np.asarray(image.convert("RGB"))
        previous = key
    return out
