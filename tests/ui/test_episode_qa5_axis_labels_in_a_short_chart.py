"""In a short state chart (about 20 pixels of plot in a 720-pixel-high window) the axis's 0,
50 and 100 ran into each other. The 50 now gives way where it would overlap the ends, and no
two labels are drawn closer than their height."""

from __future__ import annotations

import itertools

import pytest

from studio.core.state import CharacterState
from studio.ui.episode.state_chart import AXIS_LABEL_HEIGHT, StateChart


@pytest.mark.parametrize("size", [(160, 90), (220, 90), (420, 90), (420, 300)])
def test_axis_labels_never_overlap(qtbot, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(*size)
    chart.set_states([CharacterState(10, 50, 90), CharacterState(60, 40, 20)], 1)
    chart.show()
    qtbot.waitExposed(chart)
    plot = chart.plot_rect()
    labels = chart.axis_labels(plot)
    values = [value for value, _y in labels]
    ys = sorted(y for _value, y in labels)
    assert all(b - a >= AXIS_LABEL_HEIGHT for a, b in itertools.pairwise(ys)), labels
    assert values[0] == 0, "the bottom is always labelled"
    span = abs(chart.value_y(100, plot) - chart.value_y(0, plot))
    assert (100 in values) == (span >= AXIS_LABEL_HEIGHT)
    assert (50 in values) == (span / 2 >= AXIS_LABEL_HEIGHT), "the middle is labelled where it has room"
    chart.grab()  # and it paints
