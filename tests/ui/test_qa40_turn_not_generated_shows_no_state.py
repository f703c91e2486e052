"""A turn without a finished take has no predicted state: its card's state bars stay empty
and the branch's state chart plots no point for it (its tooltip and spoken description say
it is not generated yet), while a generated turn shows its state as before.

Before, a turn never generated (or whose generation was cancelled) read "not generated yet"
on its card above filled stamina, social and fun bars, and the chart plotted a point for it.
A real project, real generations, the real window's card and chart painted."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from studio.ui import palette
from tests.ui.conftest import generate_first_branch


def _stat_pixels(card) -> int:  # type: ignore[no-untyped-def]
    """How many pixels of the painted card are in a state bar's colour."""
    rect = card.boundingRect()
    image = QImage(int(rect.width()) + 1, int(rect.height()) + 1, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    painter.translate(-rect.left(), -rect.top())
    card.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    colours = {palette.STAT_COLORS[name].rgb() for name in palette.STAT_COLORS}
    return sum(1 for y in range(image.height()) for x in range(image.width()) if image.pixel(x, y) in colours)


def test_a_turn_without_a_take_shows_no_state_on_its_card_or_the_chart(
        make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    generated_leaf = generate_first_branch(window, qtbot)
    ws = window.workspace
    tree = ws.project.tree
    other_leaf = next(n.id for n in tree.leaves_under(tree.root_id) if n.id != generated_leaf)
    path = [n.id for n in tree.path_to(other_leaf)]
    never = [n for n in path[1:] if tree.selected_take(n) is None]
    done = [n for n in path[1:] if tree.selected_take(n) is not None]
    assert never and done, (never, done)

    ws.select(other_leaf, center=False)
    qtbot.waitUntil(lambda: ws.episode.chart.states and len(ws.episode.chart.states) == len(path), timeout=5000)
    for node in never:
        card = ws.scene.cards[node]
        assert card.summary.state is None
        assert _stat_pixels(card) == 0
    for node in done:
        card = ws.scene.cards[node]
        assert card.summary.state is not None
        assert _stat_pixels(card) > 0

    ws.select(never[-1], center=False)  # the inspector's state bars: empty, no values written
    assert ws.inspector.state.state is None
    assert all(not ws.inspector.state.value_text(name) for name in palette.STAT_COLORS)
    ws.select(done[-1], center=False)
    assert ws.inspector.state.state == tree.state_of(done[-1])
    ws.select(other_leaf, center=False)

    chart = ws.episode.chart
    assert chart.shown_turns() == [0, *(path.index(n) for n in done)]
    last = len(path) - 1
    assert "not generated yet" in chart.tooltip_text(last)
    assert "stamina" not in chart.tooltip_text(last)
    assert "not generated yet" in chart.accessibleDescription()
    assert "stamina" in chart.tooltip_text(path.index(done[-1]))
