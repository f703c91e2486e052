"""The studio window on half of a laptop screen: down to 640 x 480 nothing is cut off or
out of reach. (Before, the window could not be narrower than about 920 pixels: the inspector
asked for 380 beside a branch player of 320, and a window on half of a 1366 screen ran past
its edge.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLineEdit, QWidget

from studio.core.state import STATE_MAX
from studio.ui.theme import apply_theme

SMALL = (640, 480)


def _settle(qtbot, ms: int = 100) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        QApplication.processEvents()
    qtbot.wait(ms)


@pytest.fixture
def themed():  # type: ignore[no-untyped-def]
    """The studio's style sheet: its paddings make widgets wider than plain Qt's."""
    apply_theme(QApplication.instance(), "dark")
    yield


def shrink(window, qtbot, size: tuple[int, int] = SMALL) -> None:  # type: ignore[no-untyped-def]
    """Make ``window`` ``size``, as a user dragging its corner does: a step at a time, the
    window collapsing its cast dock on the way (it opens at 1,500 pixels, cast dock shown)."""
    def resized() -> bool:
        window.resize(*size)
        return (window.width(), window.height()) == size

    qtbot.waitUntil(resized, timeout=5000)
    _settle(qtbot)


def _small_window(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    shrink(window, qtbot)
    return window


def _in_window(window: QWidget, widget: QWidget) -> bool:
    top_left = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(QRect(top_left, widget.size()))


def _turn(window) -> str:  # type: ignore[no-untyped-def]
    tree = window.session.project.tree
    return tree.child_ids(tree.child_ids(tree.root_id)[0])[0]


def test_the_window_can_be_as_small_as_640_by_480(make_window, sample_project: Path, qtbot, themed) -> None:
    window = _small_window(make_window, sample_project, qtbot)
    window.workspace.select(_turn(window))
    _settle(qtbot)
    hint = window.minimumSizeHint()
    assert hint.width() <= SMALL[0] and hint.height() <= SMALL[1], hint
    assert window.minimumWidth() <= SMALL[0]
    assert (window.width(), window.height()) == SMALL  # showing a turn did not widen it
    ws = window.workspace
    # a window this short starts with the branch player's panel folded (the tree gets the
    # height); Play brings it back, and it fits then too
    assert ws.episode_fold.folded
    ws.episode_fold.open()
    _settle(qtbot)
    for widget in (ws.view, ws.episode.player, ws.episode.chart, window.inspector_dock, ws.inspector,
                   window.menuBar(), window.toolbar, window.statusBar()):
        assert widget.isVisible() and _in_window(window, widget), widget
        assert widget.width() > 0 and widget.height() > 0
    # the tree keeps room for its cards: more than half a card across, more than its title band
    assert ws.view.width() >= 300 and ws.view.viewport().height() >= 100, ws.view.size()
    # the branch player's slider is long enough to seek with (on its own line in a narrow player)
    player = ws.episode.player
    assert player.slider.width() >= 80, player.slider.width()
    assert _in_window(window, player.slider) and _in_window(window, player.play_button)


def test_the_inspector_wraps_instead_of_scrolling_sideways(make_window, sample_project: Path, qtbot,
                                                           themed) -> None:
    window = _small_window(make_window, sample_project, qtbot)
    ws = window.workspace
    ws.select(_turn(window))
    _settle(qtbot)
    inspector = ws.inspector
    body = inspector.widget()
    assert body.minimumSizeHint().width() <= inspector.viewport().width()
    assert not inspector.horizontalScrollBar().isVisible(), "the inspector scrolls sideways"
    viewport = inspector.viewport()
    editor = ws.inspector.editor
    for field in (*editor.fields(), editor.time):
        assert field.isVisible() and field.width() >= 100, (field.accessibleName(), field.width())
        right = field.mapTo(viewport, QPoint(field.width(), 0)).x()
        assert right <= viewport.width(), "a field runs past the inspector's edge"
    # every button and box of the inspector can be reached: scrolled to, it is whole in sight
    controls = [w for w in body.findChildren(QWidget)
                if w.isVisible() and isinstance(w, (QAbstractButton, QLineEdit)) and w.isEnabled()]
    assert len(controls) > 10
    for control in controls:
        inspector.ensureWidgetVisible(control, 0, 0)
        _settle(qtbot, 0)
        top_left = control.mapTo(viewport, QPoint(0, 0))
        assert top_left.x() >= 0 and top_left.x() + control.width() <= viewport.width(), control
        assert control.width() >= min(control.minimumSizeHint().width(), 40), control
    # the story's dialogue line: the speaker gives way, the text box keeps room to type in
    story = inspector.story
    if not story.rows:
        story.add_line.click()
        _settle(qtbot)
    row = story.rows[0]
    assert row.text.width() >= 80 and row.speaker.width() >= 80, (row.text.width(), row.speaker.width())


def test_the_start_boxes_go_under_their_names_in_a_narrow_inspector(make_window, sample_project: Path, qtbot,
                                                                    themed) -> None:
    window = _small_window(make_window, sample_project, qtbot)
    ws = window.workspace
    ws.select(ws.tree.root_id)
    _settle(qtbot)
    inspector, start = ws.inspector, ws.inspector.start
    assert start.spins
    assert not inspector.horizontalScrollBar().isVisible(), "the Start inspector scrolls sideways"
    assert start._stacked, "the boxes stayed beside the names in a narrow inspector"
    viewport = inspector.viewport()
    for spins in start.spins.values():
        for spin in spins.values():
            right = spin.mapTo(viewport, QPoint(spin.width(), 0)).x()
            assert right <= viewport.width(), "a start box is cut at the inspector's edge"
            edit = spin.lineEdit()
            assert edit.width() >= edit.fontMetrics().horizontalAdvance(str(STATE_MAX)), "a start value is cut"
    # a wider inspector again: the names go back beside their boxes
    window.resize(1280, 720)
    window.resizeDocks([window.inspector_dock], [430], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: start._stacked is False, timeout=5000)
    assert not inspector.horizontalScrollBar().isVisible()
    name = next(iter(start.spins))
    row_tops = {spin.mapTo(start, QPoint(0, 0)).y() for spin in start.spins[name].values()}
    assert len(row_tops) == 1, "a character's boxes are not on one line"


def test_the_welcome_page_fits_640_by_480(make_window, qtbot, themed) -> None:
    window = make_window()
    shrink(window, qtbot)
    assert window.welcome is not None and window.welcome.isVisible()
    assert window.minimumSizeHint().width() <= SMALL[0]
    assert _in_window(window, window.welcome)
