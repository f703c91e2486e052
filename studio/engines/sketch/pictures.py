"""Pictures of the cast and the places as the sketch engine draws them.

The window's Cast & world lists show a character's reference image or a place's own picture,
else the poster of a turn made there; a character or place with neither (every default one
in a new project) is shown as the sketch engine draws it: the character's head and shoulders
in its look, the place's empty scene by day. Each picture is one frame's worth of drawing
(about 15 ms), kept once drawn.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from PIL import Image

from studio.core.instruction import Instruction
from studio.core.model import CastMember
from studio.engines.base import GenerationContext
from studio.engines.catalog.sketch import SketchSettings
from studio.engines.sketch.engine import SketchEngine
from studio.engines.sketch.figure import draw_figure
from studio.engines.sketch.render import ClipRenderer, plan_from_conditioning
from studio.engines.sketch.vocabulary import LOCATION_BY_NAME

PORTRAIT_SIDE = 96
"""The side of a character's picture (a square, twice a list icon's size for HiDPI)."""
PLACE_SIZE = (96, 144)
"""A place's picture (height, width)."""
_STAGE = (480, 480)
"""The frame a character is drawn in before its head and shoulders are cut out."""
_BACKDROP = "classroom"
"""A place in daylight indoors (no tint on the character's colours) to draw a character in."""
_GROUND = (238, 230, 216)
"""The paper colour behind a character's portrait."""
_HEAD_AND_SHOULDERS = 0.55
"""How much of the figure's height (from the top of its hair or hat) a portrait shows."""


class SketchPictures:
    """Draws cast members and built-in places with one sketch engine of its own, and keeps
    what it drew (safe to call from several threads at once: one picture is drawn at a time)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engine: SketchEngine | None = None
        self._kept: dict[tuple[str, str, str], np.ndarray] = {}
        """Pictures drawn, by (kind, name, look): each is drawn once."""

    def _loaded(self) -> SketchEngine:
        if self._engine is None:
            engine = SketchEngine()
            engine.load()
            self._engine = engine
        return self._engine

    def character(self, name: str, look: Mapping[str, Any]) -> np.ndarray | None:
        """``name``'s head and shoulders in the look ``look`` (a cast member's params; a name
        with no look gets the one generated from its name), RGB, square; None for no name."""
        if not name.strip():
            return None
        params = json.dumps(dict(look), sort_keys=True, default=str)
        return self._kept_or(("character", name, params),
                             lambda: self._portrait(CastMember(id="picture", name=name, params=json.loads(params))))

    def place(self, name: str) -> np.ndarray | None:
        """The built-in place ``name`` by day without anyone in it, RGB; None for a name that
        is no built-in place (a user's own place has its picture)."""
        key = name.strip().lower()
        return self._kept_or(("place", key, ""), lambda: self._place(key)) if key in LOCATION_BY_NAME else None

    def _kept_or(self, key: tuple[str, str, str], draw: Callable[[], np.ndarray]) -> np.ndarray:
        with self._lock:
            picture = self._kept.get(key)
            if picture is None:
                picture = self._kept[key] = draw()
                picture.flags.writeable = False  # handed out to every caller
            return picture

    def _renderer(self, instruction: Instruction, cast: tuple[CastMember, ...], size: tuple[int, int]
                  ) -> ClipRenderer:
        """The renderer of ``instruction``'s one-frame clip at ``size`` (height, width)."""
        settings = SketchSettings(height=size[0], width=size[1], frames=1, fps=8.0, camera="static")
        prediction = self._loaded().predict(GenerationContext(cast=cast), instruction, settings, seed=0)
        return ClipRenderer(plan_from_conditioning(prediction.conditioning))

    def _portrait(self, member: CastMember) -> np.ndarray:
        instruction = Instruction(raw=member.name, character=member.name, motion="idle", background=_BACKDROP,
                                  time_of_day="day")
        renderer = self._renderer(instruction, (member,), _STAGE)
        _x, facing, pose = renderer.placement(0)
        sprite, _hip = draw_figure(renderer.spec, pose, facing, renderer.scale, 0.0, 0.0, renderer.supersample)
        return _head_and_shoulders(sprite)

    def _place(self, name: str) -> np.ndarray:
        instruction = Instruction(raw=name, motion="idle", background=name, time_of_day="day")
        renderer = self._renderer(instruction, (), PLACE_SIZE)
        scene = renderer.background(renderer.camera_at(0.0)).convert("RGB")
        return np.asarray(scene)[:PLACE_SIZE[0], :PLACE_SIZE[1]].copy()


def _head_and_shoulders(sprite: Image.Image) -> np.ndarray:
    """The figure's head and shoulders (the top of its drawing, a square a little more than
    half as high as the figure) on a plain paper-coloured ground."""
    alpha = np.asarray(sprite)[..., 3] > 0  # premultiplied RGBa: its fourth band is the alpha
    rows, cols = np.nonzero(alpha)
    if rows.size == 0:  # nothing drawn: the ground alone
        return _resized(Image.new("RGB", (8, 8), _GROUND), PORTRAIT_SIDE)
    top, bottom = int(rows.min()), int(rows.max()) + 1
    side = max(8, round((bottom - top) * _HEAD_AND_SHOULDERS))
    middle = int(np.median(cols[rows < top + side]))
    margin = side // 10
    canvas = Image.new("RGB", (side + 2 * margin, side + 2 * margin), _GROUND)
    figure = sprite.crop((middle - side // 2, top, middle - side // 2 + side, top + side + 2 * margin))
    canvas.paste(figure, (margin, margin), figure)
    return _resized(canvas, PORTRAIT_SIDE)


def _resized(image: Image.Image, side: int) -> np.ndarray:
    return np.asarray(image.resize((side, side), Image.Resampling.LANCZOS))


_DRAWER: SketchPictures | None = None


def draw_picture(kind: str, name: str, look: str) -> np.ndarray | None:
    """A picture by kind ("character": ``name`` in the JSON look ``look``; "place": the
    built-in place ``name``), drawn by this process's one :class:`SketchPictures`: what a
    process of its own that draws for the window calls (see ``studio.composition``)."""
    global _DRAWER
    if _DRAWER is None:
        _DRAWER = SketchPictures()
    if kind == "character":
        return _DRAWER.character(name, json.loads(look))
    return _DRAWER.place(name) if kind == "place" else None
