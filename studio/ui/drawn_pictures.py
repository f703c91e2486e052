"""Pictures drawn for the Cast & world lists' characters and places that have none.

A character's picture is its first reference image, else the poster of a turn it acts in; a
place's is its own picture, else the poster of a turn set there. Where there is neither (every
character and place of a new project), the list shows the character or place as the app's
drawing engine draws it, drawn off the GUI thread and kept. The window is handed the drawer
(:attr:`~studio.ui.services.AppServices.pictures`): it never names an engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QImage

from studio.ui.media_cache import LoaderCache

if TYPE_CHECKING:
    import numpy as np


class PictureDrawer(Protocol):
    """Draws a character (head and shoulders) or a built-in place as RGB pixels; None for
    what it can't draw."""

    def character(self, name: str, look: Mapping[str, Any]) -> np.ndarray | None: ...

    def place(self, name: str) -> np.ndarray | None: ...


def drawn_character_key(name: str, look: Mapping[str, Any]) -> str:
    """The cache key of ``name``'s picture in the look ``look`` (a new look is a new picture)."""
    return json.dumps(["character", name, dict(look)], sort_keys=True, default=str)


def drawn_place_key(name: str) -> str:
    return json.dumps(["place", name])


def _drawn(drawer: PictureDrawer, key: str) -> QImage | None:
    kind, name, *look = json.loads(key)
    pixels = drawer.character(name, look[0]) if kind == "character" else drawer.place(name)
    if pixels is None:
        return None
    height, width = pixels.shape[:2]
    image = QImage(pixels.tobytes(), width, height, 3 * width, QImage.Format.Format_RGB888)
    return image.copy()  # its own pixels: the bytes above go when this returns


class DrawnPictureCache(LoaderCache):
    """Drawn pictures by key (:func:`drawn_character_key`, :func:`drawn_place_key`); ``ready`` fires with
    the key of each one drawn. A key the drawer can't draw is not asked again."""

    def __init__(self, drawer: PictureDrawer, parent: QObject | None = None) -> None:
        super().__init__(lambda key: _drawn(drawer, key), capacity=256, parent=parent)

    def get(self, key: str) -> QImage | None:
        value = self.request(key)
        return value if isinstance(value, QImage) else None
