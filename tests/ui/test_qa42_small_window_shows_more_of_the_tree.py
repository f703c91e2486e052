"""At 800x600 the story tree showed about one card: the branch player's panel kept its least
height under it and the inspector took half the width. In a short window the episode panel
now starts folded to its handle (Play, or a drag of the handle, brings it back), and a small
window gives the inspector less than half of its width: more of the tree can be read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.geometry import CARD_H, CARD_W


def _settle(qtbot: Any, ms: int = 100) -> None:
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(ms)


def _sized(make_window: Any, project: Path, qtbot: Any, width: int, height: int) -> Any:
    window = make_window()

    def resized() -> bool:
        window.resize(width, height)
        return window.width() == width and window.height() == height

    qtbot.waitUntil(resized, timeout=5000)
    assert window.open_project(project), window.last_error
    _settle(qtbot)
    ws = window.workspace
    tree = ws.tree
    ws.select(tree.child_ids(tree.child_ids(tree.root_id)[0])[0])  # turn 2, centred as a click does
    _settle(qtbot, 200)
    return window


def _whole_cards(ws: Any) -> int:
    """How many cards the tree's view shows whole now (each card's body: its outline and the
    badges over its edge are left out)."""
    shown = ws.view.visible_scene_rect()
    return sum(1 for card in ws.scene.cards.values()
               if shown.contains(QRectF(card.scenePos(), QSizeF(CARD_W, CARD_H))))


def test_an_800x600_window_shows_more_cards_and_play_brings_the_player_back(
        make_window, sample_project: Path, qtbot) -> None:
    window = _sized(make_window, sample_project, qtbot, 800, 600)
    ws = window.workspace
    assert ws.episode_fold.folded, "a short window starts with the episode panel folded"
    assert ws.view.height() >= 0.8 * ws.splitter.height()
    assert ws.view.width() >= 0.6 * window.width() - 20, "the inspector leaves the tree more than half"
    # before: one card whole (the view was 413 x 230 pixels)
    assert _whole_cards(ws) >= 2, (_whole_cards(ws), ws.view.size())
    assert ws.splitter.handle(1).toolTip().startswith("Drag up to show the branch player")

    ws.play()  # (the Play action is off here: the sample has no clip yet)
    qtbot.waitUntil(lambda: not ws.episode_fold.folded, timeout=5000)
    assert ws.episode.height() >= ws.episode.minimumSizeHint().height()
    window.resize(800, 560)  # the user's wish holds: the rule does not fold it again
    _settle(qtbot)
    assert not ws.episode_fold.folded


def test_a_window_of_usual_height_keeps_the_episode_panel_open(make_window, sample_project: Path, qtbot) -> None:
    window = _sized(make_window, sample_project, qtbot, 1280, 720)
    ws = window.workspace
    assert not ws.episode_fold.folded
    window.resize(1280, 600)  # made short: folded; tall again: back, as the rule folded it
    qtbot.waitUntil(lambda: ws.episode_fold.folded, timeout=5000)
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: not ws.episode_fold.folded, timeout=5000)
