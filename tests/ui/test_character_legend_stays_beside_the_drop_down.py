"""The per-character chart drew its legend in one line from the left: with a large cast of
long names it ran under the view's drop-down and off the chart's right edge. The legend now
wraps into rows left of the drop-down, elides a long name, and counts the characters it has
no room for ("+4 more"; the tooltip names them all)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from studio.core.commands import AddCastMember, AddTurn
from studio.core.model import CastMember
from studio.core.state import CharacterState
from studio.ui.episode.state_chart import StateChart

LONG_NAMES = [f"{first} of the Northern Lighthouse Guild" for first in
              ("Aurelia", "Bartholomew", "Cordelia", "Dorothea", "Evangeline", "Florentine", "Gwendolyn",
               "Hildegard", "Ignatius")]


def _check_legend(chart: StateChart, names: list[str]) -> None:
    box = QRectF(chart.mode_box.geometry())
    entries = chart.legend()
    plot = chart.plot_rect()
    for entry in entries:
        assert not box.intersects(entry.rect), (chart.width(), entry)
        assert entry.rect.left() >= 0 and entry.rect.right() <= chart.width(), (chart.width(), entry)
        assert entry.rect.bottom() <= plot.top(), (entry, plot)
    named = [entry for entry in entries if entry.color is not None]
    counted = [entry for entry in entries if entry.color is None]
    shown = len(named) + sum(int(entry.text.removeprefix("+").split()[0]) for entry in counted)
    assert shown == len(names), [entry.text for entry in entries]
    for entry, name in zip(named, names, strict=False):
        assert entry.text == name or (entry.text.endswith("…") and name.startswith(entry.text[:-1])), entry.text
    for first, second in pairwise(entries):
        assert not first.rect.intersects(second.rect), (first, second)


@pytest.mark.parametrize("width", [200, 300, 480, 700, 1200])
def test_a_large_cast_legend_keeps_off_the_drop_down(qtbot, width: int) -> None:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(width, 130)
    chart.show()
    qtbot.waitExposed(chart)
    states = [CharacterState(40, 50, 60)] * 5
    chart.set_states(states, 1)
    chart.set_character_states({name: states for name in LONG_NAMES})
    chart.set_mode("social")
    _check_legend(chart, LONG_NAMES)
    assert chart.plot_rect().height() >= 20, "the plot keeps room for its lines"
    for name in LONG_NAMES:
        assert name in chart.tooltip_text(1), "the tooltip names every character, shown or counted"
    chart.set_mode("acting")  # the stats' legend: all three, in one row beside a wide chart
    assert [entry.text for entry in chart.legend()] == ["Stamina", "Social", "Fun"]
    _check_legend(chart, ["Stamina", "Social", "Fun"])


def test_the_chart_legend_of_a_large_cast_at_1280x720(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    parent = window.session.project.tree.root_id
    for number, name in enumerate(LONG_NAMES[:8]):  # a branch where each of them acts
        ws.apply(AddCastMember(CastMember(id=f"long{number}", name=name)))
        ws.apply(AddTurn(parent, f"Character: {name}; Motion: wave; Background: day town.", node_id=f"t{number}"))
        parent = f"t{number}"
    qtbot.waitUntil(lambda: parent in ws.tree.nodes, timeout=5_000)
    window.resize(1280, 720)
    ws.select(parent, center=False)
    QApplication.processEvents()
    qtbot.wait(300)
    chart = ws.episode.chart
    chart.set_mode("stamina")
    qtbot.waitUntil(lambda: len(chart.character_lines()) == 8, timeout=5_000)
    names = list(chart.character_lines())
    assert names == LONG_NAMES[:8]
    _check_legend(chart, names)
