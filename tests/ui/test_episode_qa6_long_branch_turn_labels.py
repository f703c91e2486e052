"""The state chart labelled every fifth turn of a 60-turn branch whatever its width: on a
narrow chart the numbers ran into one another ("start5 10 15…"). It now labels every turn
while they fit, else every 2nd, 5th, 10th… turn's, so that the labels stay apart."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from studio.core.commands import AddTurn
from studio.core.state import CharacterState
from studio.ui.episode.state_chart import LABEL_GAP, StateChart


def _check_labels(chart: StateChart, turns: int) -> list[str]:
    labels = chart.turn_labels()
    assert labels and labels[0][0] == "start"
    for (_, first), (_, second) in pairwise(labels):
        assert second.left() - first.right() >= LABEL_GAP - 2.5, (chart.width(), first, second)
    for text, rect in labels:
        assert rect.left() >= 0 and rect.right() <= chart.width() + 4, (chart.width(), text, rect)
    numbers = [int(text) for text, _ in labels[1:]]
    assert all(number <= turns for number in numbers)
    return [text for text, _ in labels]


@pytest.mark.parametrize("width", [180, 260, 400, 900])
def test_a_60_turn_branch_keeps_its_turn_labels_apart(qtbot, width: int) -> None:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(width, 130)
    chart.show()
    qtbot.waitExposed(chart)
    chart.set_states([CharacterState(index % 101, 0, 100) for index in range(61)], 60)
    texts = _check_labels(chart, 60)
    assert len(texts) >= 3, "a long branch still shows where along it the turns are"


def test_a_one_turn_branch_labels_both_its_points(qtbot) -> None:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(300, 130)
    chart.show()
    chart.set_states([CharacterState(0, 0, 0), CharacterState(100, 100, 100)], 1)
    assert _check_labels(chart, 1) == ["start", "1"]


def test_the_chart_of_a_60_turn_branch_in_the_window(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    parent = window.session.project.tree.root_id
    for number in range(60):
        ws.apply(AddTurn(parent, f"Turn {number}: wave at the sea.", node_id=f"long{number}"))
        parent = f"long{number}"
    qtbot.waitUntil(lambda: parent in ws.tree.nodes, timeout=10_000)
    window.resize(1280, 720)
    ws.select(parent, center=False)
    QApplication.processEvents()
    chart = ws.episode.chart
    qtbot.waitUntil(lambda: len(chart.states) == 61, timeout=5_000)
    for width in (chart.width(), 220):
        chart.resize(width, chart.height())
        _check_labels(chart, 60)
