"""The Cast & world lists show each character and built-in place as the drawing engine draws
them when they have no picture of their own (a new project's whole cast and world), and keep
a character's own reference image."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from studio.engines.sketch.look import parse_color
from studio.ui.cast_panel import THUMB


def _pixels(item: QListWidgetItem) -> np.ndarray:
    image = item.icon().pixmap(THUMB * 2).toImage().convertToFormat(QImage.Format.Format_RGB888)
    width, height = image.width(), image.height()
    data = bytes(image.constBits())[: image.bytesPerLine() * height]
    rows = np.frombuffer(data, dtype=np.uint8).reshape(height, image.bytesPerLine())
    return rows[:, : 3 * width].reshape(height, width, 3)


def _share_near(pixels: np.ndarray, rgb: tuple[int, int, int]) -> float:
    return float((np.abs(pixels.astype(np.int16) - np.array(rgb, dtype=np.int16)).sum(axis=2) <= 40).mean())


def _item(widget: QListWidget, name: str) -> QListWidgetItem:
    [item] = [widget.item(row) for row in range(widget.count()) if widget.item(row).text() == name]
    return item


def test_a_new_projects_cast_and_places_show_as_drawn(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    panel = window.workspace.cast
    members = {m.name: m for m in window.session.project.tree.cast.values()}
    hair = {name: parse_color(m.params.get("hair_color")) for name, m in members.items()}

    def drawn(name: str) -> bool:
        colour = hair[name]
        return colour is not None and _share_near(_pixels(_item(panel.characters, name)), colour) > 0.04

    qtbot.waitUntil(lambda: all(drawn(name) for name in members), timeout=20_000)
    # places: each its own picture (the plain icon is the same for all), the beach under a blue sky
    def beach_and_library_differ() -> bool:
        beach, library = _pixels(_item(panel.locations, "beach")), _pixels(_item(panel.locations, "library"))
        return beach.shape == library.shape and bool(np.abs(beach.astype(int) - library.astype(int)).mean() > 20)

    qtbot.waitUntil(beach_and_library_differ, timeout=20_000)
    beach = _pixels(_item(panel.locations, "beach"))
    assert float((beach[..., 2].astype(int) - beach[..., 0] > 60).mean()) > 0.2, "the beach's sky and sea"


def test_a_reference_image_is_shown_rather_than_the_drawing(make_window, tmp_path: Path, qtbot) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "story"), window.last_error
    panel = window.workspace.cast
    picture = tmp_path / "green.png"
    Image.new("RGB", (64, 64), (20, 200, 40)).save(picture)
    panel.add_character("Midori", [picture])
    qtbot.waitUntil(lambda: any(panel.characters.item(r).text() == "Midori" for r in range(panel.characters.count())))
    assert _share_near(_pixels(_item(panel.characters, "Midori")), (20, 200, 40)) > 0.5
    # another character, no pictures: drawn in a look made from the name
    panel.add_character("Hana")
    qtbot.waitUntil(lambda: any(panel.characters.item(r).text() == "Hana" for r in range(panel.characters.count())))
    qtbot.waitUntil(lambda: _share_near(_pixels(_item(panel.characters, "Hana")), (238, 230, 216)) > 0.1,
                    timeout=20_000)
