"""Opening a project keeps the window's width. (QA: a window of 960 pixels, half of a 1920
screen, grew to 1,033 when a project opened, and 1,024 on a 1,024-pixel screen ran past its
edge: the queue and cast docks came back with the project and raised the window's minimum
width before the window collapsed them for being too narrow.)"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("width", [960, 1024])
def test_a_narrow_window_keeps_its_width(make_window, sample_project: Path, qtbot, width: int) -> None:
    window = make_window()
    window.resize(width, 760)
    qtbot.waitUntil(lambda: window.width() == width, timeout=5000)
    assert window.open_project(sample_project), window.last_error
    qtbot.wait(100)
    assert window.width() == width
    assert window.minimumWidth() <= width
    assert window.cast_dock.isHidden() and window.queue_dock.isHidden()  # collapsed: a narrow window
    assert not window.inspector_dock.isHidden()
    window.close_project("cancel")
    assert window.open_project(sample_project), window.last_error  # and again, from the welcome page
    qtbot.wait(100)
    assert window.width() == width
