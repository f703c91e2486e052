"""The window at laptop size and the tree at every zoom: docks leave the canvas half the
window, the queue steps aside when idle, cards keep their poster and title zoomed out, the
view opens readable and follows new turns, queue rows read as sentences."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtWidgets import QApplication

from studio.ui.canvas.card_item import BODY_PX
from studio.ui.canvas.geometry import (
    CARD_H,
    CARD_W,
    DEFAULT_ZOOM,
    FULL_DETAIL,
    MARGIN,
    OVERVIEW_SCALE,
    POSTER_DETAIL,
)
from studio.ui.node_summary import CardStatus
from studio.ui.window_layout import dock_widths

JOB_TIMEOUT_MS = 120_000


def _settle(qtbot, ms: int = 300) -> None:  # type: ignore[no-untyped-def]
    QApplication.processEvents()
    qtbot.wait(ms)


def _generate_all(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = window.workspace
    tree = window.session.project.tree
    for leaf in tree.leaves_under(tree.root_id):
        ws.select(leaf.id, center=False)
        window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: all(ws.scene.status(n) in (CardStatus.DONE, CardStatus.START) for n in tree.nodes),
                    timeout=10_000)


def test_the_queue_comes_out_on_a_later_turn_and_not_for_jobs_already_gone(
        make_window, sample_project: Path, qtbot) -> None:
    """Showing the queue re-lays out the whole window: it is not added to the work of taking
    in the jobs (it comes on a later turn of the event loop), and jobs that ended meanwhile
    don't bring it out at all."""
    window = make_window(sample_project)
    _settle(qtbot)
    queue = window.workspace.queue
    assert window.queue_dock.isHidden()
    queue.has_jobs = True
    window._queue_activity(True)
    assert window.queue_dock.isHidden()  # not in the same stretch of work
    qtbot.waitUntil(lambda: not window.queue_dock.isHidden(), timeout=5000)
    window.queue_dock.hide()
    window._queue_activity(True)
    queue.has_jobs = False
    window._queue_activity(False)  # done before the dock came out
    _settle(qtbot, 100)
    assert window.queue_dock.isHidden()


@pytest.mark.parametrize("width", [1024, 1280, 1600, 1920])
def test_dock_widths_leave_the_canvas_half_the_window(width: int) -> None:
    for left_open in (False, True):
        widths = dock_widths(width, left_open=left_open)
        if width >= 1280:
            assert widths.canvas(width) >= width / 2
        assert (widths.left > 0) == left_open
    assert dock_widths(1920, left_open=True).inspector == 430  # room enough: the docks' own widths


def test_at_1280x720_the_canvas_keeps_half_the_window_and_the_queue_hides_when_idle(
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    _settle(qtbot)
    ws = window.workspace
    assert window.queue_dock.isHidden()  # no jobs: no queue
    assert window.cast_dock.isHidden()  # a narrow window collapses the cast dock
    assert ws.view.width() >= 640, ws.view.width()
    window.actions_.fill.trigger()  # jobs: the queue comes back
    qtbot.waitUntil(lambda: not window.queue_dock.isHidden(), timeout=5000)
    _settle(qtbot)
    assert ws.view.width() >= 640, ws.view.width()
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(lambda: window.queue_dock.isHidden(), timeout=10_000)  # idle again: it steps aside
    _settle(qtbot)
    assert ws.view.width() >= 640
    # the player below the tree is not a thumbnail, and the chart's legend sits above its plot
    assert ws.episode.player.width() >= 320 and ws.episode.player.height() >= 200
    chart = ws.episode.chart
    legend = chart.legend_rects()
    assert legend[-1].right() <= chart.width() and legend[0].bottom() <= chart.plot_rect().top()
    # View > Cast & world brings the collapsed dock back without widening the window
    window.cast_dock.toggleViewAction().trigger()
    _settle(qtbot)
    assert window.cast_dock.isVisible() and window.width() == 1280
    assert window.cast_dock.minimumSizeHint().width() <= 300


def test_zoomed_out_cards_paint_their_poster_and_title(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    _generate_all(window, qtbot)
    ws = window.workspace
    view, scene = ws.view, ws.scene
    view.fit_all()
    assert POSTER_DETAIL <= view.zoom < FULL_DETAIL  # the whole sample fits: the zoomed-out level
    qtbot.waitUntil(lambda: all(scene.poster(c.summary.poster_path) is not None
                                for c in scene.cards.values() if c.summary.poster_path), timeout=10_000)
    for card in scene.cards.values():
        card.update()
    _settle(qtbot)
    image = view.viewport().grab().toImage()
    tree = window.session.project.tree
    turn = tree.child_ids(tree.root_id)[0]
    cell = scene.cells[turn]
    # the poster fills the card's upper part: sample it there
    poster = QRectF(cell.x + MARGIN + 10, cell.y + MARGIN + 6, CARD_W - 2 * MARGIN - 20, 60)
    top_left = view.mapFromScene(poster.topLeft())
    bottom_right = view.mapFromScene(poster.bottomRight())
    colours = {image.pixelColor(x, y).name() for x in range(top_left.x(), bottom_right.x(), 2)
               for y in range(top_left.y(), bottom_right.y(), 2)}
    assert len(colours) > 12, f"a flat box, not a picture ({len(colours)} colours)"
    # the title band under it holds text: light pixels on the dark card
    title = view.mapFromScene(QPointF(cell.x + MARGIN, cell.y + CARD_H - 2 * MARGIN - 22 - 30))
    band = [image.pixelColor(x, y).lightness() for x in range(title.x(), title.x() + 30)
            for y in range(title.y() - 6, title.y() + 8)]
    assert max(band) - min(band) > 80, "no title text under the poster"
    # further out (below POSTER_DETAIL): no title, the poster is still there
    view.set_zoom((POSTER_DETAIL + OVERVIEW_SCALE) / 2)
    view.centerOn(scene.tree_rect().center())
    assert not scene.overview_on
    _settle(qtbot)
    image = view.viewport().grab().toImage()
    centre = view.mapFromScene(QPointF(cell.x + CARD_W / 2, cell.y + CARD_H / 3))
    colours = {image.pixelColor(x, y).name() for x in range(centre.x() - 8, centre.x() + 8)
               for y in range(centre.y() - 4, centre.y() + 4)}
    assert len(colours) > 4, "far out, the card lost its picture"


def test_projects_open_readable_around_the_selection_and_the_start_is_never_cut(
        make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    _settle(qtbot, 400)
    view = window.workspace.view
    assert view.zoom == pytest.approx(DEFAULT_ZOOM)
    assert BODY_PX * view.zoom >= 11  # card text at least 11 px on screen
    visible = view.visible_scene_rect()
    root_cell = window.workspace.scene.cells[window.session.project.tree.root_id]
    assert visible.contains(QRectF(root_cell.x, root_cell.y, CARD_W, CARD_H))  # the Start card whole
    # deep in the tree: no card is cut by the left edge
    tree = window.session.project.tree
    deepest = max(tree.nodes, key=tree.depth)
    window.workspace.select(deepest)
    _settle(qtbot)
    visible = view.visible_scene_rect()
    for cell in window.workspace.scene.cells.values():
        assert not (cell.x < visible.left() < cell.x + CARD_W), "a card cut by the view's left edge"
    assert visible.contains(QRectF(window.workspace.scene.cells[deepest].x, window.workspace.scene.cells[deepest].y,
                                   CARD_W, CARD_H))


def test_the_view_follows_a_new_turn(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    window.resize(1280, 720)
    _settle(qtbot, 400)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[-1].id
    ws.view.show_around(tree.root_id)
    before = set(tree.nodes)
    ws.inspector.show_draft(tree, leaf)
    ws.generate_text(leaf, "Character: Qiqi; Motion: wave; Background: day beach.")
    qtbot.waitUntil(lambda: len(window.session.project.tree.nodes) == len(before) + 1, timeout=5000)
    new = (set(window.session.project.tree.nodes) - before).pop()
    qtbot.waitUntil(lambda: new in ws.scene.cells, timeout=5000)
    cell = ws.scene.cells[new]
    qtbot.waitUntil(lambda: ws.view.visible_scene_rect().contains(QRectF(cell.x, cell.y, CARD_W, CARD_H)),
                    timeout=5000)
    qtbot.waitUntil(lambda: ws.current_id == new)


def test_queue_rows_say_what_each_job_does(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    first = tree.child_ids(tree.root_id)[0]
    ws.select(first, center=False)
    window.actions_.fill.trigger()  # the branch: parents first
    qtbot.waitUntil(lambda: ws.queue.list.topLevelItemCount() >= 5, timeout=5000)
    labels = [ws.queue.list.topLevelItem(i).text(0) for i in range(ws.queue.list.topLevelItemCount())]
    assert labels[0].startswith("Generate turn 1 · Qiqi ") and labels[1].startswith("Generate turn 2 · ")
    assert not any("Character:" in label or "Motion:" in label for label in labels)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    # a forked turn's first take is a Generate; its second one a Re-roll
    ws.select(first, center=False)
    window.actions_.fork.trigger()
    qtbot.waitUntil(lambda: ws.current_id != first)  # the fork is made by the writer, then selected
    fork = ws.current_id
    assert fork != first
    ws.reroll(fork)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    ws.reroll(fork)
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    ws.queue.refresh()
    rows = [ws.queue.list.topLevelItem(i).text(0) for i in range(ws.queue.list.topLevelItemCount())]
    fork_rows = [r for r in rows if r.startswith(("Generate turn 1", "Re-roll turn 1")) and "Fill" not in r]
    assert rows[0].startswith("Re-roll turn 1 · ") and rows[1].startswith("Generate turn 1 · "), fork_rows
    header = ws.queue.list.header()
    for column in (1, 2):  # status and progress are sized to their contents, never cut
        if not ws.queue.list.isColumnHidden(column):  # progress is hidden while nothing runs
            assert header.sectionSize(column) >= ws.queue.list.sizeHintForColumn(column)
    assert not ws.queue.list.isColumnHidden(1)


@pytest.mark.parametrize("width", [200, 240, 300, 360, 480, 900])
def test_the_chart_drop_down_never_covers_the_legend(qtbot, width: int) -> None:
    """With the queue open at 1280x720 the chart is about 300 px wide: the view drop-down
    narrows (its text elides) instead of hiding Social and Fun."""
    from studio.ui.episode.state_chart import StateChart

    chart = StateChart()
    qtbot.addWidget(chart)
    chart.resize(width, 120)
    chart.show()
    qtbot.waitExposed(chart)
    box = QRectF(chart.mode_box.geometry())
    for rect in chart.legend_rects():
        assert not box.intersects(rect), (width, box, rect)
    assert box.right() <= chart.width()
    if width >= 480:  # room for the whole drop-down
        assert box.width() == chart.mode_box.sizeHint().width()
    # never cut to a stub: beside the legend it keeps room for its text, else it gets a row
    assert box.width() >= min(chart.mode_box.sizeHint().width(), 120, width - 12)
    assert chart.legend_rects()[0].bottom() <= chart.plot_rect().top()
