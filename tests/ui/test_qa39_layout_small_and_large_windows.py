"""The window at 800 x 600 and at 2560 x 1440: the state chart keeps a readable plot (or says
it has no room), the filmstrip scrolls by whole tiles, the inspector grows in a very wide
window, and the cast panel's views row says what it shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from studio.ui.theme import apply_theme


def _settle(qtbot: Any, ms: int = 50) -> None:
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(ms)


@pytest.fixture
def themed():  # type: ignore[no-untyped-def]
    apply_theme(QApplication.instance(), "dark")
    yield


def _sized(make_window: Any, project: Path, qtbot: Any, width: int, height: int) -> Any:
    """A window of this size with ``project`` opened in it (opened at that size: the docks are
    sized as the project opens)."""
    window = make_window()

    def resized() -> bool:
        window.resize(width, height)
        return window.width() == width and window.height() == height

    qtbot.waitUntil(resized, timeout=5000)
    window.open_project(project)
    _settle(qtbot, 100)
    ws = window.workspace
    tree = ws.tree
    ws.select(tree.child_ids(tree.child_ids(tree.root_id)[0])[0])  # turn 2, as the user's screenshots
    _settle(qtbot, 200)
    return window


# -- the state chart ----------------------------------------------------------------------

@pytest.mark.parametrize("size", [(800, 600), (1024, 768), (1280, 720)])
def test_the_state_chart_keeps_a_readable_plot(make_window, sample_project: Path, qtbot, themed,
                                               size: tuple[int, int]) -> None:
    from studio.ui.episode.state_chart import MIN_PLOT_H

    window = _sized(make_window, sample_project, qtbot, *size)
    chart = window.workspace.episode.chart
    plot = chart.plot_rect()
    assert plot.height() >= MIN_PLOT_H, f"a plot {plot.height():.0f} px high at {size}"
    tops = {round(rect.top()) for rect in chart.legend_rects()}
    assert len(tops) == 1, "the legend wraps to a second line"
    assert len(chart.axis_labels(plot)) == 3  # 0, 50 and 100 all read
    assert window.height() == size[1]  # the window still fits the size asked for


def test_a_narrow_chart_puts_its_legend_on_one_line_and_keeps_the_plot(qtbot, themed) -> None:
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from studio.core.state import CharacterState
    from studio.ui.episode.state_chart import MIN_PLOT_H, StateChart

    holder = QWidget()
    qtbot.addWidget(holder)
    layout = QVBoxLayout(holder)
    chart = StateChart(holder)
    layout.addWidget(chart)
    holder.resize(180, 60)  # less than it needs: the layout gives it its minimum
    holder.show()
    chart.set_states([CharacterState(stamina=50 + i, social=40, entertainment=60) for i in range(8)], 2)
    _settle(qtbot)
    assert chart.stacked  # the drop-down on its own row: the narrow case the user saw
    assert chart.plot_rect().height() >= MIN_PLOT_H
    assert len({round(rect.top()) for rect in chart.legend_rects()}) == 1
    for rect in chart.legend_rects():
        assert rect.left() >= 0 and rect.right() <= chart.width()
    wide_minimum = StateChart()
    qtbot.addWidget(wide_minimum)
    wide_minimum.resize(500, 10)
    wide_minimum.show()
    _settle(qtbot)
    assert not wide_minimum.stacked
    assert wide_minimum.minimumHeight() < chart.minimumHeight()  # only a stacked chart asks for more
    assert wide_minimum.plot_rect().height() >= MIN_PLOT_H


# -- the filmstrip --------------------------------------------------------------------------

def test_the_filmstrip_scrolls_by_whole_tiles(make_window, sample_project: Path, qtbot, themed) -> None:
    from studio.ui.episode.filmstrip import PITCH

    window = _sized(make_window, sample_project, qtbot, 800, 600)
    episode = window.workspace.episode
    bar = episode.scroll_area.horizontalScrollBar()
    tree = window.workspace.tree
    node = tree.root_id
    while tree.child_ids(node):
        node = tree.child_ids(node)[0]
    window.workspace.select(node)  # the last turn: the strip scrolls
    _settle(qtbot, 200)
    assert bar.maximum() > 0, "the branch fits: nothing to test"
    assert bar.value() % PITCH == 0 and bar.maximum() % PITCH == 0
    for value in (1, 37, int(PITCH) + 70, bar.maximum() - 5):
        bar.setValue(value)
        _settle(qtbot, 10)
        assert bar.value() % PITCH == 0, f"scrolled to {value}, the view starts inside a tile"
        first = int(bar.value() // PITCH)
        left = episode.strip.thumb_rect(first).left() - bar.value()
        assert left >= 0  # the first tile seen starts in the view: its number shows
    selected = episode.strip.thumb_rect(episode.strip.current)
    bar.setValue(bar.maximum())
    window.workspace.select(node)
    _settle(qtbot, 50)
    shown = QRect(bar.value(), 0, episode.scroll_area.viewport().width(), 10)
    assert shown.left() <= selected.left() and selected.right() <= shown.right()


# -- the inspector and the cast panel at 2560 x 1440 -----------------------------------------

def test_the_inspector_grows_in_a_very_wide_window() -> None:
    from studio.ui.window_layout import INSPECTOR_MAX, INSPECTOR_WIDTH, dock_widths

    assert dock_widths(1920, left_open=True).inspector == INSPECTOR_WIDTH
    wide = dock_widths(2560, left_open=True)
    assert 600 <= wide.inspector <= INSPECTOR_MAX
    assert wide.canvas(2560) >= 2560 / 2
    widths = [dock_widths(w, left_open=True).inspector for w in range(1900, 3000, 10)]
    assert widths == sorted(widths) and max(widths) == INSPECTOR_MAX  # grows smoothly, then stops


def test_at_2560_a_dialogue_line_shows_whole_and_the_views_row_is_not_bare(
        make_window, sample_project: Path, qtbot, themed) -> None:
    from studio.ui.cast_panel import EMPTY_VIEW

    window = _sized(make_window, sample_project, qtbot, 2560, 1440)
    assert window.inspector_dock.width() >= 600
    editor = window.workspace.inspector.story
    editor.add_line.click()
    _settle(qtbot)
    row = editor.rows[-1]
    row.text.setText("Where is the clock tower? I have a parcel for the baker.")
    _settle(qtbot)
    shown = row.text.fontMetrics().horizontalAdvance(row.text.text())
    assert shown < row.text.width() - 8, "the line is cut in its box"
    cast = window.workspace.cast
    cast.characters.setCurrentItem(None)
    _settle(qtbot)
    assert not cast.view_strip.isVisible()  # no bare "none none none none" under no one
    assert "Select a character" in cast.views_note.text()
    cast.characters.setCurrentRow(0)
    _settle(qtbot)
    texts = [label.text() for label in cast.view_strip.pictures]
    assert "none" not in texts
    if cast.view_strip.isVisible():
        assert all(text in ("", EMPTY_VIEW) for text in texts)


def test_a_short_speaker_name_leaves_its_room_to_the_line(qtbot, themed) -> None:
    from studio.core.story import DialogueLine
    from studio.ui.inspector.story_editor import SPEAKER_MIN_WIDTH, DialogueRow

    said = "Where is the clock tower?"
    row = DialogueRow(DialogueLine("Qiqi", said), ["Qiqi", "Yuzu"])
    qtbot.addWidget(row)
    row.resize(340, row.sizeHint().height())  # the row's room in a 430-pixel inspector
    row.show()
    _settle(qtbot)
    assert row.speaker.width() >= SPEAKER_MIN_WIDTH
    assert row.speaker.fontMetrics().horizontalAdvance("Qiqi") < row.speaker.width()  # the name still reads
    needed = row.text.fontMetrics().horizontalAdvance(said) + 12  # the text and the box's margins
    assert row.text.width() >= needed, f"{row.text.width()} px for a line that needs {needed}"
    ten_chars = row.speaker.sizeHint().width()
    row.speaker.setCurrentText("Professor Hinata")  # a long name takes its ten characters again
    _settle(qtbot)
    assert row.speaker.width() == ten_chars
