"""Tooltips of the tree canvas. QA: a stale card's tooltip said nothing of the "stale" label on
it (what it means, what to do), nor did a queued or a generating card's; and zoomed out to the
map of coloured cells, hovering a cell showed nothing at all, so a cell could not be told from
another without zooming in. Cards now say what their status means, and a map cell's tooltip
names its turn (title and instruction) and its status."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QPointF
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from studio.core import AddTake, Take
from studio.core.commands import AddTurn, EditInstruction
from studio.storage import Project
from studio.ui.canvas.geometry import CARD_H, CARD_W
from studio.ui.node_summary import CardStatus
from studio.ui.text_wrap import unbroken
from tests.ui.conftest import fake_engine_window

TIMEOUT_MS = 60_000


def _tip_text(tip: str) -> str:
    """A rich-text tooltip as the user reads it."""
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setHtml(tip)
    return unbroken(document.toPlainText())


def _stale_second_turn(path: Path) -> str:
    """The sample's second turn with a take made from a take of the first turn that is no
    longer the chosen one: the second turn is stale."""
    with Project.open(path) as project:
        tree = project.tree
        first = tree.child_ids(tree.root_id)[0]
        second = tree.child_ids(first)[0]
        project.apply(AddTake(Take(id="first-a", node_id=first, engine="sketch")))
        project.apply(AddTake(Take(id="second-a", node_id=second, engine="sketch", parent_take_id="first-a")))
        project.apply(AddTake(Take(id="first-b", node_id=first, engine="sketch")))
        return second


def test_a_stale_cards_tooltip_says_what_stale_means(make_window, sample_project: Path) -> None:  # type: ignore[no-untyped-def]
    second = _stale_second_turn(sample_project)
    window = make_window(sample_project)
    scene = window.workspace.scene
    window.workspace.view.center_on_node(second, only_if_hidden=False)
    assert scene.status(second) is CardStatus.STALE
    tip = _tip_text(scene.cards[second].toolTip())
    assert "Stale: made before a turn above it changed" in tip
    assert "Re-roll" in tip


def test_queued_and_generating_cards_say_so_in_their_tooltips(make_window, sample_project: Path, settings,  # type: ignore[no-untyped-def]
                                                              registry, qtbot) -> None:
    with Project.open(sample_project) as project:
        first = project.tree.child_ids(project.tree.root_id)[0]
        second = project.tree.child_ids(first)[0]
        project.apply(EditInstruction(first, "Character: Qiqi; Motion: walk; Background: day town. [block]"))
    window, script = fake_engine_window(make_window, sample_project, settings, registry)
    ws = window.workspace
    try:
        ws.select(second)
        window.actions_.fill.trigger()  # the first turn runs (and waits), the second waits its turn
        qtbot.waitUntil(lambda: ws.scene.status(first) is CardStatus.RUNNING
                        and ws.scene.status(second) is CardStatus.QUEUED, timeout=TIMEOUT_MS)
        ws.view.center_on_node(first, only_if_hidden=False)
        qtbot.waitUntil(lambda: first in ws.scene.cards and second in ws.scene.cards, timeout=TIMEOUT_MS)
        assert "Generating:" in _tip_text(ws.scene.cards[first].toolTip())
        assert "Queued:" in _tip_text(ws.scene.cards[second].toolTip())
    finally:
        script.release.set()
        qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=TIMEOUT_MS)
    assert "Queued:" not in _tip_text(ws.scene.cards[second].toolTip())
    assert "Generating:" not in _tip_text(ws.scene.cards[first].toolTip())


def _wide_tree(folder: Path) -> Path:
    from studio.composition import create_project

    project = create_project(folder / "wide.kamishibai", name="Wide")
    parent = project.tree.root_id
    for index in range(120):
        project.apply(AddTurn(parent, f"Character: Qiqi; Motion: walk; Background: day town. step {index}",
                              f"main{index}"))
        parent = f"main{index}"
    project.apply(AddTurn("main40", "Character: Yuzu; Motion: wave; Background: day park. the other way", "side"))
    path = project.path
    project.close()
    return path


def _hover(view, point, qtbot) -> str:  # type: ignore[no-untyped-def]
    """The tooltip shown for a pause of the pointer at ``point`` (viewport coordinates)."""
    QToolTip.hideText()
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=5000)  # it hides after a moment
    viewport = view.viewport()
    QApplication.sendEvent(viewport, QHelpEvent(QEvent.Type.ToolTip, point, viewport.mapToGlobal(point)))
    return _tip_text(QToolTip.text()) if QToolTip.isVisible() else ""


def test_a_map_cell_names_its_turn_in_a_tooltip(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(_wide_tree(tmp_path))
    window.resize(1280, 720)
    qtbot.wait(50)
    window.actions_.fit.trigger()
    ws = window.workspace
    assert ws.scene.overview_on
    cell = ws.scene.cells["side"]
    tip = _hover(ws.view, ws.view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 2)), qtbot)
    assert "Yuzu" in tip and "the other way" in tip
    below = ws.view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + 4 * CARD_H))
    assert _hover(ws.view, below, qtbot) == ""  # no turn there, no tip
