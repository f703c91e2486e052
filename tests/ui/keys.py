"""Pressing the story area's single-key shortcuts as a user does."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def press_story_key(window, qtbot, key: Qt.Key) -> None:  # type: ignore[no-untyped-def]
    """A story-area key, pressed as a user does: in the active window, with the canvas focused.

    Its shortcuts only fire there. An error box would have taken the activation: that fails
    here with its message. Anything else that took it (the test platform hands activation to
    any window shown, and to none when one hides) is undone first, so the key tests the window
    and not the platform."""
    assert window.last_error is None, window.last_error.message
    if QApplication.activeWindow() is not window:
        print("the window was not active; active:", QApplication.activeWindow(),
              [type(w).__name__ for w in QApplication.topLevelWidgets() if w.isVisible()])
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    view = window.workspace.view
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=5000)
    qtbot.keyClick(view, key)
