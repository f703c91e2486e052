"""At 800 and 1024 pixels wide the toolbar's engine picker, the window's main choice, was pushed
behind the overflow button (») by the labelled buttons before it; in a narrow window the buttons
now show their icons alone (names in tooltips and menus) and the picker stays in sight."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from studio.ui.main_window import COMPACT_TOOLBAR_WIDTH


def _picker_in_sight(window) -> bool:  # type: ignore[no-untyped-def]
    picker = window.engine_picker
    if not picker.isVisible():
        return False
    inside = picker.geometry()
    return window.toolbar.rect().contains(inside)


@pytest.mark.parametrize("size", [(800, 600), (1024, 768), (1280, 800), (1600, 1000)])
def test_the_engine_picker_stays_in_sight(make_window, sample_project: Path, qtbot, size: tuple[int, int]) -> None:
    window = make_window()
    window.open_project(sample_project)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    assert _picker_in_sight(window), (size, window.engine_picker.geometry(), window.toolbar.rect())
    labelled = [window.toolbar.widgetForAction(a) for a in (window.actions_.generate, window.actions_.export)]
    styles = {b.toolButtonStyle() for b in labelled if isinstance(b, QToolButton)}
    expected = (Qt.ToolButtonStyle.ToolButtonIconOnly if size[0] < COMPACT_TOOLBAR_WIDTH
                else Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    assert styles == {expected}
    assert window.actions_.generate.toolTip()  # the name is still told
    picker = window.engine_picker
    narrow = size[0] < COMPACT_TOOLBAR_WIDTH
    assert picker.status.isVisible() is not narrow
    if narrow:  # the device and the engine's status are told by the picker's tooltip
        assert picker.status.text() and picker.toolTip() == picker.status.text()


def test_widening_again_brings_the_names_back(make_window, sample_project: Path, qtbot) -> None:
    window = make_window()
    window.open_project(sample_project)
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    button = window.toolbar.widgetForAction(window.actions_.generate)
    assert isinstance(button, QToolButton)
    assert button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly
    window.resize(1600, 1000)
    qtbot.wait(50)
    assert button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
    assert window.engine_picker.status.isVisible() and not window.engine_picker.toolTip()
