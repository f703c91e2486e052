"""Tab follows what the eye reads in a panel whose widgets change with what it shows.

Widgets made after a panel was built (chips, take tiles, dialogue lines) join Qt's focus
chain at the end of the window, so Tab reached them only after every dock. Re-ordering
Qt's chain each time a turn is shown (``QWidget.setTabOrder``) left it broken once those
widgets were deleted, and the window crashed; so the chain is left alone and the panel
answers Tab itself: :func:`tab_target` picks the next widget in layout order, and past the
panel's ends the first widget outside it in Qt's own chain.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLayout, QScrollArea, QSplitter, QWidget

MAX_CHAIN_STEPS = 2000
"""How far along Qt's chain to look for a widget outside the panel (a window has far fewer)."""


def _tab_focus(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)


def _reachable(widget: QWidget) -> bool:
    return _tab_focus(widget) and widget.isVisible() and widget.isEnabled()


def widgets_in_reading_order(root: QWidget) -> list[QWidget]:
    """The widgets under ``root`` that Tab can reach, in the order their layouts place them
    (a scroll area's contents after the area itself, a splitter's panes in their order),
    hidden ones included."""
    found: list[QWidget] = []

    def visit_layout(layout: QLayout) -> None:
        for index in range(layout.count()):
            item = layout.itemAt(index)
            if item is None:
                continue
            if (widget := item.widget()) is not None:
                visit_widget(widget)
            elif (inner := item.layout()) is not None:
                visit_layout(inner)

    def visit_widget(widget: QWidget) -> None:
        if _tab_focus(widget):
            found.append(widget)
        if isinstance(widget, QScrollArea):
            if (content := widget.widget()) is not None:
                visit_widget(content)
        elif isinstance(widget, QSplitter):  # a splitter lays its panes out without a layout
            for pane in range(widget.count()):
                if (inner_widget := widget.widget(pane)) is not None:
                    visit_widget(inner_widget)
        elif (layout := widget.layout()) is not None:
            visit_layout(layout)

    if (layout := root.layout()) is not None:
        visit_layout(layout)
    return found


def tab_target(panel: QWidget, body: QWidget, focus: QWidget, forward: bool) -> QWidget | None:
    """Where Tab (``forward``) or Shift+Tab goes from ``focus`` inside ``panel``, whose
    widgets ``body`` lays out: the next reachable widget in reading order, else the first
    reachable one outside ``panel`` along Qt's chain; None when there is none."""
    order = [w for w in widgets_in_reading_order(body) if _reachable(w)]
    places = [i for i, w in enumerate(order) if w is focus or w.isAncestorOf(focus)]
    if places:
        step = places[-1] + (1 if forward else -1)  # the innermost entry holding the focus
        if 0 <= step < len(order):
            return order[step]
    widget: QWidget | None = focus
    for _ in range(MAX_CHAIN_STEPS):
        if widget is None:
            return None
        widget = widget.nextInFocusChain() if forward else widget.previousInFocusChain()
        if widget is None or widget is focus:
            return None
        if widget is not panel and not panel.isAncestorOf(widget) and _reachable(widget):
            return widget
    return None


def entry_target(panel: QWidget, focus: QWidget, forward: bool) -> QWidget | None:
    """Where Tab (``forward``) or Shift+Tab goes from ``focus`` outside ``panel`` when Qt's
    chain would take it into the middle of the panel: to a widget made for the panel after
    the window (a dialogue line, a chip, a take tile), which sits at the chain's end. Those
    are skipped (the panel answers Tab for them, see :func:`tab_target`): forward, Tab goes
    on to the next widget outside the panel, or the panel itself at its own place in the
    chain; backward, reaching the panel enters it at its last widget in reading order.
    None: Qt's own choice is not inside the panel (it stands)."""
    if focus is panel or panel.isAncestorOf(focus):
        return None
    window = focus.window()
    widget: QWidget = focus
    entering = False
    for _ in range(MAX_CHAIN_STEPS):
        step = widget.nextInFocusChain() if forward else widget.previousInFocusChain()
        if step is None or step is focus:
            return None
        widget = step
        if widget.window() is not window or not _reachable(widget):
            continue
        if widget is not panel and panel.isAncestorOf(widget):  # (isAncestorOf holds for the panel too)
            entering = True  # Qt would stop here: look further
            continue
        if not entering:
            return None
        if widget is panel and not forward:
            body = panel.widget() if isinstance(panel, QScrollArea) else panel
            inside = [w for w in widgets_in_reading_order(body) if _reachable(w)] if body is not None else []
            return inside[-1] if inside else panel
        return widget
    return None


def move_to_chain_end(widgets: Sequence[QWidget]) -> None:
    """Put ``widgets`` (all of one window) last in their window's Tab chain, in this order.

    For a panel that the eye reads after the others but that was built among them: the
    episode preview, made beside the story tree, stood between the tree and the inspector,
    so Tab from the tree went through the player's buttons first. Long-lived widgets only
    (see the module's docstring: the chain is not re-ordered for widgets made per turn)."""
    if not widgets:
        return
    window = widgets[0].window()
    last = window.previousInFocusChain()
    for _ in range(MAX_CHAIN_STEPS):  # the chain's last focusable widget not among ``widgets``
        if last is None or last is window or (last.focusPolicy() != Qt.FocusPolicy.NoFocus
                                              and not any(last is widget for widget in widgets)):
            break  # (Qt's setTabOrder does nothing after a widget that takes no focus)
        last = last.previousInFocusChain()
    if last is None or last is window:
        return
    previous = last
    for widget in widgets:
        if widget.window() is window and widget is not previous:
            QWidget.setTabOrder(previous, widget)
            previous = widget
