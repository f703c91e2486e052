"""The window's size, place and dock layout, saved when it closes and restored when it opens.

What is restored must leave a usable window on the screen there is now: a saved geometry
from a larger (or another) screen is brought onto this one, and one that restores to a
sliver (a damaged or hand-edited settings file) is dropped for the default size.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

DEFAULT_SIZE = QSize(1500, 920)
"""The window's size when no usable one was saved (the screen permitting)."""
SMALLEST_RESTORED = QSize(400, 300)
"""A restored window smaller than this is taken for a damaged setting, not a choice."""
FRAME_ALLOWANCE = QSize(16, 48)
"""Room kept for the title bar and borders the window system adds, until the window has
shown and its frame is known."""


def restore_window(window: QMainWindow, geometry: object, state: object) -> None:
    """Give ``window`` its saved geometry and dock layout, each only if it can be used.

    Values of another type (a settings file edited by hand) are ignored; so is a layout
    Qt refuses. Call before the window first shows."""
    restored = isinstance(geometry, QByteArray) and window.restoreGeometry(geometry)
    if restored and (window.width() < SMALLEST_RESTORED.width() or window.height() < SMALLEST_RESTORED.height()):
        restored = False
    if not restored:
        window.resize(DEFAULT_SIZE)  # fitted to the screen when the app starts (:func:`keep_on_screen`)
    laid_out = isinstance(state, QByteArray) and window.restoreState(state)
    if restored or laid_out:
        keep_on_screen(window, window_too=restored)


def available_area(window: QMainWindow) -> QRect:
    """Where windows may go on the screen under ``window``'s centre (else the primary one)."""
    screen = QGuiApplication.screenAt(window.geometry().center()) or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect()


def keep_on_screen(window: QMainWindow, *, window_too: bool = True) -> None:
    """Shrink and move ``window`` (``window_too``) and its floating docks so that they lie
    on the screen: a size saved on a larger screen, or the default on a small one, would
    leave part of the window, its title bar perhaps, where the user can't reach it."""
    area = available_area(window)
    if area.isEmpty():
        return
    if window_too:
        window.setGeometry(_fitted(window.geometry(), area, _frame_extra(window)))
    for dock in window.findChildren(QDockWidget):
        if dock.isFloating():
            dock.setGeometry(_fitted(dock.geometry(), area, _frame_extra(dock)))


def fit_on_screen(widget: QWidget) -> None:
    """Shrink and move the top-level ``widget`` (a dialog, a compare window) so that it lies
    on the screen it opens on, frame included, as far as its minimum size allows: the
    Settings dialog (about 660 pixels tall) and the compare window of three takes (990 wide)
    went past an 800x600 screen, OK and Cancel out of reach. Call from its showEvent."""
    screen = widget.screen()
    area = screen.availableGeometry() if screen is not None else QRect()
    if area.isEmpty():
        return
    # shown, a window's frame is not known until the window system has framed it: room for
    # a title bar is kept in any case
    fitted = _fitted(widget.geometry(), area, _frame_extra(widget).expandedTo(FRAME_ALLOWANCE))
    if fitted != widget.geometry():
        widget.setGeometry(fitted)


def _frame_extra(widget: QWidget) -> QSize:
    """How much the window frame adds to the size (:data:`FRAME_ALLOWANCE` until it is known)."""
    frame, inner = widget.frameGeometry(), widget.geometry()
    if frame == inner and not widget.isVisible():  # not shown yet: the frame is not there
        return FRAME_ALLOWANCE
    return QSize(max(0, frame.width() - inner.width()), max(0, frame.height() - inner.height()))


def _fitted(rect: QRect, area: QRect, extra: QSize) -> QRect:
    """``rect`` made no larger than ``area`` (frame included) and moved inside it."""
    width = max(1, min(rect.width(), area.width() - extra.width()))
    height = max(1, min(rect.height(), area.height() - extra.height()))
    left = min(max(rect.left(), area.left()), area.right() + 1 - width - extra.width())
    top = min(max(rect.top(), area.top()), area.bottom() + 1 - height - extra.height())
    return QRect(max(left, area.left()), max(top, area.top()), width, height)
