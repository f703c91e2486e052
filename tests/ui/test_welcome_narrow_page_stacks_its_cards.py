"""The welcome page below about 760 pixels wide puts its Start and Keyboard cards one above
the other: side by side they needed more width than the page had, and it scrolled sideways."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QScrollArea

from studio.ui.welcome import WelcomeContent, WelcomePage

SHORTCUTS = [("Ctrl+N", "New project"), ("Enter", "Generate the selected turn"), ("F1", "Help")]


def _page(qtbot, width: int) -> WelcomePage:  # type: ignore[no-untyped-def]
    page = WelcomePage(WelcomeContent(recent=[Path("/tmp/a/Story.kamishibai")], shortcuts=SHORTCUTS))
    qtbot.addWidget(page)
    page.resize(width, 700)
    page.show()
    qtbot.waitExposed(page)
    return page


def _sideways(page: WelcomePage) -> int:
    """How far the page scrolls sideways (0: not at all), once its layouts are done."""
    for _ in range(3):  # a resize posts layout requests, which post the scroll area's own
        QApplication.processEvents()
    return page.findChild(QScrollArea).horizontalScrollBar().maximum()


def test_a_narrow_page_stacks_the_cards_and_does_not_scroll_sideways(qtbot) -> None:  # type: ignore[no-untyped-def]
    page = _page(qtbot, 640)
    qtbot.waitUntil(lambda: page._start.width() > 0, timeout=5000)
    assert _sideways(page) == 0
    start, shortcuts = page._start.geometry(), page._shortcuts.geometry()
    assert shortcuts.top() > start.bottom(), "the Keyboard card is not under the Start card"
    assert page._engines.geometry().top() > shortcuts.bottom()


def test_a_wide_page_keeps_the_cards_side_by_side_and_narrowing_stacks_them(qtbot) -> None:  # type: ignore[no-untyped-def]
    page = _page(qtbot, 1000)
    qtbot.waitUntil(lambda: page._start.width() > 0, timeout=5000)
    assert page._shortcuts.geometry().top() == page._start.geometry().top()
    assert page._shortcuts.geometry().left() > page._start.geometry().right()
    page.resize(page.side_by_side_width() - 1, 700)
    qtbot.waitUntil(lambda: page._shortcuts.geometry().top() > page._start.geometry().bottom(), timeout=5000)
    assert _sideways(page) == 0
    page.resize(1000, 700)
    qtbot.waitUntil(lambda: page._shortcuts.geometry().top() == page._start.geometry().top(), timeout=5000)
    assert _sideways(page) == 0
