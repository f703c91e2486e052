"""In a small window with the queue open the episode panel's column is about 110 pixels wide:
the chart's drop-down and the filmstrip's status marks say less, whole, rather than cut
(QA at 800x600: "Acting c", and a mark "generatin" cut with its thumbnail)."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionComboBox

from studio.ui.episode.filmstrip import THUMB_H, THUMB_W, fit_mark
from studio.ui.episode.state_chart import StateChart

COLUMN = 110
"""About the episode panel's right column at 800x600 with the queue open."""


def _box_text_room(box) -> int:  # type: ignore[no-untyped-def]
    """How wide a text the drop-down shows whole at its width."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                       QStyle.SubControl.SC_ComboBoxEditField, box)
    return field.width()


def test_the_chart_drop_down_says_its_view_whole_when_narrow(qtbot) -> None:  # type: ignore[no-untyped-def]
    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(COLUMN, 150)
    chart.show()
    for _ in range(3):
        QApplication.processEvents()
    box = chart.mode_box
    text = box.currentText()
    assert box.fontMetrics().horizontalAdvance(text) <= _box_text_room(box), (text, box.width())
    assert text == "Acting"
    chart.resize(600, 150)
    for _ in range(3):
        QApplication.processEvents()
    assert box.currentText() == "Acting character"  # with room, the full name again


def test_a_mark_stays_whole_in_a_strip_narrower_than_a_thumbnail(qtbot) -> None:  # type: ignore[no-untyped-def]
    metrics = QFontMetrics(QApplication.font())
    thumb = QRectF(6, 6, THUMB_W, THUMB_H)
    shown = QRectF(0, 0, COLUMN - 10, 120)  # the strip's part in view: the thumbnail's right is cut off
    placed = fit_mark(metrics, thumb, shown, "generating 40%")
    assert placed is not None
    pill, text = placed
    assert shown.contains(pill)
    assert pill.width() >= metrics.horizontalAdvance(text) + 10
    assert text in ("generating 40%", "40%")
    placed = fit_mark(metrics, thumb, shown, "generating")
    assert placed is not None and placed[1] == "generating" and shown.contains(placed[0])
    placed = fit_mark(metrics, thumb, QRectF(0, 0, 600, 120), "generating 40%")
    assert placed is not None and placed[1] == "generating 40%"  # with room, said whole at the thumbnail's corner
    assert placed[0].right() == thumb.right() - 2


def test_a_legend_too_narrow_for_its_names_gives_way_to_the_tooltip(qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.core.state import CharacterState

    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(COLUMN, 150)
    chart.set_states([CharacterState(10, 50, 90), CharacterState(60, 40, 20)], 1)
    chart.show()
    qtbot.waitExposed(chart)
    for entry in chart.legend():  # any legend drawn names its lines readably, not colours alone
        assert len(entry.text.rstrip("…")) >= 3, [e.text for e in chart.legend()]
    if not chart.legend():
        tip = chart.tooltip_text(1)
        assert "stamina 60 (green)" in tip and "social 40 (blue)" in tip and "fun 20 (orange)" in tip, tip
    chart.resize(600, 150)
    for _ in range(3):
        QApplication.processEvents()
    assert [entry.text for entry in chart.legend()] == ["Stamina", "Social", "Fun"]
    assert chart.tooltip_text(1) == "Turn 1: stamina 60, social 40, fun 20"
