"""The inspector's width follows the window as the user widens or narrows it (430 pixels up to
a full HD window, growing to 700 in a very wide one), not only when a project opens; a width
the user gave it by dragging its splitter is kept (after a restart too) in a window at least as
wide as the one they chose it in, until they drag it back to about the window's own. In a
narrower window it gives back room, so that the canvas keeps half of the window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtWidgets import QApplication

from studio.ui.window_layout import INSPECTOR_MAX, INSPECTOR_WIDTH, inspector_width
from tests.ui.dock_edges import drag_dock_edge, mouse


def _resize(window: Any, qtbot: Any, width: int, height: int = 1000) -> None:
    def resized() -> bool:
        window.resize(width, height)
        return window.width() == width and window.height() == height

    qtbot.waitUntil(resized, timeout=5000)
    for _ in range(3):
        QApplication.processEvents()


def _at(make_window: Any, qtbot: Any, project: Path, width: int) -> Any:
    """A window ``width`` pixels wide with ``project`` opened in it."""
    window = make_window()
    _resize(window, qtbot, width)
    assert window.open_project(project), window.last_error
    for _ in range(3):
        QApplication.processEvents()
    return window


def test_widening_and_narrowing_the_window_resizes_the_inspector(make_window, sample_project: Path,
                                                                 qtbot) -> None:
    window = _at(make_window, qtbot, sample_project, 1920)
    dock = window.inspector_dock
    assert dock.width() == INSPECTOR_WIDTH
    _resize(window, qtbot, 2560)  # widened by hand: no project opened, no squeeze
    assert dock.width() == inspector_width(2560) == INSPECTOR_MAX
    _resize(window, qtbot, 2200)
    assert dock.width() == inspector_width(2200) and INSPECTOR_WIDTH < dock.width() < INSPECTOR_MAX
    _resize(window, qtbot, 1920)
    assert dock.width() == INSPECTOR_WIDTH
    canvas = window.workspace.width()
    _resize(window, qtbot, 2400)
    assert dock.width() == inspector_width(2400)
    assert window.workspace.width() > canvas  # the canvas has its share of the room too
    assert window.last_error is None


def test_a_width_dragged_by_the_user_is_kept_as_the_window_is_resized(make_window, sample_project: Path,
                                                                      qtbot) -> None:
    from studio.ui.inspector_width import BACK_TO_RULE_PX

    window = _at(make_window, qtbot, sample_project, 1920)
    dock = window.inspector_dock
    drag_dock_edge(window, window.inspector_dock, -120)
    chosen = dock.width()
    assert chosen == INSPECTOR_WIDTH + 120
    for width in (2560, 2200, 1920, 2560, 1280):
        _resize(window, qtbot, width, 720 if width < 1920 else 1000)
        assert dock.width() == chosen, f"at {width} px"  # (at 1280 the canvas still has more than half)
    _resize(window, qtbot, 2560)
    back = chosen - INSPECTOR_MAX + BACK_TO_RULE_PX // 2  # back to about the window's own
    drag_dock_edge(window, window.inspector_dock, back)
    _resize(window, qtbot, 2200)
    assert dock.width() == inspector_width(2200)  # the window's rule holds again
    _resize(window, qtbot, 2560)
    assert dock.width() == INSPECTOR_MAX


def test_a_width_dragged_in_a_very_wide_window_leaves_a_narrower_one_half_for_the_canvas(
        make_window, sample_project: Path, qtbot) -> None:
    window = _at(make_window, qtbot, sample_project, 2560)
    dock = window.inspector_dock
    drag_dock_edge(window, window.inspector_dock, -300)
    chosen = dock.width()
    assert chosen == INSPECTOR_MAX + 300
    _resize(window, qtbot, 2500)  # a little narrower: a little narrower inspector, no jump
    assert chosen - 60 <= dock.width() < chosen
    for width, height in ((1920, 1080), (1280, 720)):
        _resize(window, qtbot, width, height)
        assert dock.width() < chosen
        # about half (the cast list may keep a little more than the room the rule gives it)
        assert window.workspace.width() >= 0.45 * width, f"at {width} px"
    _resize(window, qtbot, 2560)
    assert dock.width() == chosen  # as wide as where it was chosen: the user's width again


def test_the_dragged_width_is_kept_when_the_studio_is_started_again(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window = _at(make_window, qtbot, sample_project, 1920)
    drag_dock_edge(window, window.inspector_dock, -100)
    chosen = window.inspector_dock.width()
    assert chosen == INSPECTOR_WIDTH + 100
    window.close()

    again = _at(make_window, qtbot, sample_project, 2560)  # the settings of the window closed
    assert again.inspector_dock.width() == chosen


def test_a_saved_width_that_cannot_be_one_is_ignored(tmp_path: Path) -> None:
    from studio.ui.settings import StudioSettings
    from studio.ui.window_layout import ChosenWidth

    settings = StudioSettings.at(tmp_path / "settings.ini")
    assert settings.inspector_width() is None  # never dragged: the window's rule
    settings.q.setValue("window/inspector_width_chosen_at", "1920")
    for damaged in ("wide", "-5", "0", "1920", "99999"):
        settings.q.setValue("window/inspector_width", damaged)
        assert settings.inspector_width() is None, damaged
    settings.q.setValue("window/inspector_width", "520")
    settings.q.remove("window/inspector_width_chosen_at")
    assert settings.inspector_width() is None
    settings.save_window(None, None, inspector_width=ChosenWidth(520, 1920))
    assert StudioSettings.at(tmp_path / "settings.ini").inspector_width() == ChosenWidth(520, 1920)
    settings.save_window(None, None)  # dragged back to the rule's: forgotten
    assert StudioSettings.at(tmp_path / "settings.ini").inspector_width() is None


def test_a_press_passed_on_by_a_child_is_not_a_drag_of_the_splitter(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window = _at(make_window, qtbot, sample_project, 1920)
    dock = window.inspector_dock
    toolbar = window.toolbar.geometry()
    x, y = toolbar.center().x(), toolbar.center().y()  # a press the toolbar did not take reaches the window
    assert window.childAt(QPoint(x, y)) is not None
    mouse(window, QEvent.Type.MouseButtonPress, x, y, Qt.MouseButton.LeftButton)
    try:
        window.resizeDocks([dock], [INSPECTOR_WIDTH + 80], Qt.Orientation.Horizontal)  # the window's doing
        QApplication.processEvents()
    finally:
        mouse(window, QEvent.Type.MouseButtonRelease, x, y, Qt.MouseButton.NoButton)
    assert window.inspector_width.chosen is None
    _resize(window, qtbot, 2560)
    assert dock.width() == INSPECTOR_MAX  # the window's rule still holds


def test_a_chosen_width_narrows_smoothly_with_the_window() -> None:
    from studio.ui.window_layout import ChosenWidth, kept_inspector_width

    for chosen in (ChosenWidth(560, 1920), ChosenWidth(1000, 2560), ChosenWidth(1100, 1920)):
        for left_open in (True, False):
            last = chosen.width
            for window_width in range(chosen.window_width, 799, -10):
                kept = kept_inspector_width(chosen, window_width, left_open=left_open)
                assert last - 10 <= kept <= last, (chosen, window_width)  # never more than the window lost
                if window_width <= chosen.window_width - chosen.width:  # narrowed by more than the width itself
                    assert kept < window_width // 2  # the canvas has its half of the window, or near it
                last = kept
            assert kept_inspector_width(chosen, chosen.window_width + 500, left_open=left_open) == chosen.width
