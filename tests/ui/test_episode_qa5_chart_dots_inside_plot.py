"""The state chart's dots and lines stay inside its plot.

A value of 0 or 100 lay on the plot's bottom or top edge and the first and last turns on its
left and right edges, so the dots (the current turn's 4.5 pixels across) were drawn past the
plot, over the turn labels below it and towards the legend above. The points now lie in the
plot inset by the largest dot's radius."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage

from studio.core.state import STAT_NAMES, CharacterState
from studio.ui import palette
from studio.ui.episode.state_chart import CHARACTER_COLORS, StateChart

EXTREMES = [CharacterState(0, 100, 0), CharacterState(100, 0, 100), CharacterState(0, 100, 50),
            CharacterState(100, 0, 0)]


def _pixels(chart: StateChart) -> np.ndarray:
    image = chart.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    scale = image.width() / chart.width()
    assert scale == 1, "the chart is grabbed at one pixel a unit"
    array = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine())
    return array[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def _near(pixels: np.ndarray, colors: list[QColor]) -> np.ndarray:
    """Pixels within a little of any of ``colors`` (a dot or line's own pixels, not its blend)."""
    near = np.zeros(pixels.shape[:2], dtype=bool)
    for color in colors:
        near |= np.abs(pixels - np.array([color.red(), color.green(), color.blue()])).max(axis=2) <= 24
    return near


def _outside(chart: StateChart, colors: list[QColor]) -> list[tuple[int, int]]:
    """Pixels of ``colors`` outside the plot, the legend's swatches aside: (x, y) pairs."""
    near = _near(_pixels(chart), colors)
    plot = chart.plot_rect()
    inside = np.zeros_like(near)
    inside[int(plot.top()): int(np.ceil(plot.bottom())), int(plot.left()): int(np.ceil(plot.right()))] = True
    for rect in [*chart.legend_rects(), QRectF(chart.mode_box.geometry())]:
        top, left = int(rect.top()), int(rect.left())
        inside[top: int(np.ceil(rect.bottom())) + 1, left: int(np.ceil(rect.right())) + 1] = True
    ys, xs = np.nonzero(near & ~inside)
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def _chart(qtbot, current: int) -> StateChart:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(420, 150)
    chart.show()
    qtbot.waitExposed(chart)
    chart.set_states(EXTREMES, current)
    return chart


@pytest.mark.parametrize("current", [0, len(EXTREMES) - 1])
def test_dots_at_0_and_100_stay_inside_the_plot(qtbot, current: int) -> None:  # type: ignore[no-untyped-def]
    chart = _chart(qtbot, current)
    colors = [palette.STAT_COLORS[stat] for stat in STAT_NAMES]
    assert _near(_pixels(chart), colors).any(), "the lines are drawn"
    assert _outside(chart, colors) == []


def test_the_per_character_view_stays_inside_the_plot(qtbot) -> None:  # type: ignore[no-untyped-def]
    chart = _chart(qtbot, len(EXTREMES) - 1)
    chart.set_character_states({"Qiqi": EXTREMES, "Jiji": list(reversed(EXTREMES))})
    chart.set_mode("stamina")
    colors = [QColor(color) for color in CHARACTER_COLORS[:2]]
    assert _near(_pixels(chart), colors).any(), "the lines are drawn"
    assert _outside(chart, colors) == []


def test_a_value_of_0_and_100_lie_a_dot_inside_the_plot_edges(qtbot) -> None:  # type: ignore[no-untyped-def]
    chart = _chart(qtbot, 0)
    plot = chart.plot_rect()
    top, bottom = chart.point(1, "stamina"), chart.point(0, "stamina")  # 100 and 0
    assert plot.top() < top.y() < bottom.y() < plot.bottom()
    assert plot.left() < bottom.x() < chart.point_x(len(EXTREMES) - 1) < plot.right()
