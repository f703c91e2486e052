"""The keyboard's focus ring round the selected card goes round its fold control, not through
it (QA: the dashed ring ran down the middle of the "−", which then read as "+")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.card_item import FOLD_CENTER, FOLD_RADIUS
from studio.ui.theme import apply_theme


def _control_pixels(view, card) -> list[tuple[int, int, int]]:  # type: ignore[no-untyped-def]
    """The fold control's pixels as the view shows them now (its disc, less its rim)."""
    for _ in range(3):
        QApplication.processEvents()
    image = view.viewport().grab().toImage()
    center = view.mapFromScene(card.mapToScene(FOLD_CENTER))
    reach = int(FOLD_RADIUS * view.zoom) - 2
    pixels = []
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            if dx * dx + dy * dy <= reach * reach:
                color = image.pixelColor(center.x() + dx, center.y() + dy)
                pixels.append((color.red(), color.green(), color.blue()))
    return pixels


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_ring_does_not_cross_the_fold_sign(make_window, sample_project: Path, qtbot, scheme: str) -> None:  # type: ignore[no-untyped-def]
    apply_theme(QApplication.instance(), scheme)  # type: ignore[arg-type]
    try:
        window = make_window(sample_project)
        window.resize(1280, 720)
        ws = window.workspace
        tree = window.session.project.tree
        turn2 = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
        ws.select(turn2)
        card = ws.scene.cards[turn2]
        assert card.foldable
        ws.view.centerOn(card.mapToScene(QPointF(FOLD_CENTER)))
        ws.view.setFocus()
        qtbot.waitUntil(ws.view.hasFocus, timeout=3000)
        focused = _control_pixels(ws.view, card)
        window.menuBar().setFocus()
        qtbot.waitUntil(lambda: not ws.view.hasFocus(), timeout=3000)
        unfocused = _control_pixels(ws.view, card)
        differing = sum(a != b for a, b in zip(focused, unfocused, strict=True))
        assert differing == 0, f"{differing} of the control's {len(focused)} pixels change with the ring"
    finally:
        apply_theme(QApplication.instance(), "dark")  # type: ignore[arg-type]
