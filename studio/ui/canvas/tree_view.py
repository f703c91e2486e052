"""The view onto the tree scene: zoom (Ctrl+wheel, +/-), pan (drag, scroll), fit, arrows.

Arrow keys are handled here as well as by the window's actions, so navigation works
whether or not the window-level shortcut fires (e.g. in an inactive test window). Home and
End go on as Left and Right do, to the ends of the selected branch: its first turn (the
start) and its last.

The mouse: a card clicked is selected where it is (the view does not scroll it from under
the pointer, where a double click's second press would then land on another card), and a
left drag pans the view wherever it starts, on a card as between them. Zoomed out to the
map of coloured cells (no cards then), a cell answers as its card would: a click selects
its turn, a right click opens its menu, and a double click zooms in to read it.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFocusEvent,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QFrame, QGraphicsView, QMenu, QToolTip, QWidget

from studio.ui import palette
from studio.ui.canvas.card_item import FOLD_CENTER, FOLD_RADIUS
from studio.ui.canvas.geometry import CARD_H, CARD_W, DEFAULT_ZOOM, OVERVIEW_SCALE, RADIUS, card_rect_at
from studio.ui.canvas.spoken import TREE_NAME, spoken_turn
from studio.ui.canvas.tree_scene import TreeScene
from studio.ui.tree_layout import COLUMN_WIDTH


def tree_view_overview_scale() -> float:
    """Read at call time so a benchmark can switch the overview off (``OVERVIEW_SCALE = 0``)."""
    return OVERVIEW_SCALE


EDGES_MIN_SCALE = 0.03
"""Further out edges are under a pixel long: the overview alone shows the tree's shape."""
MIN_SCALE = 0.001
MAX_SCALE = 2.5
ZOOM_STEP = 1.2
ZOOM_KEY_MODIFIERS = (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier
                      | Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.GroupSwitchModifier)
"""What `+`, `=` and `-` may be pressed with and still zoom: Shift (`+` is Shift+`=` on many
keyboards), Ctrl (`Ctrl+=` and `Ctrl+-`, as in a browser), the keypad and AltGr. With Alt or
Meta the key is not a zoom: it goes on to the window (a desktop's own shortcut, a menu)."""
EDGE_PAD = 24.0
"""Space kept between the view's left edge and the first card it shows whole."""
FOCUS_RING_GAP = 3.0
"""How far outside the selected card the keyboard's focus ring is drawn (scene units: inside
the card's bounding rect, so that the card's own repaint clears it when the selection moves)."""
FOCUS_RING_PX = 2.0


class TreeView(QGraphicsView):
    navigate = Signal(str)  # "parent" | "child" | "prev" | "next"
    zoom_changed = Signal(float)

    def __init__(self, scene: TreeScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.tree_scene = scene
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
                            | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlags(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setObjectName("treeView")
        # Files dragged over the story go to the window, which opens or imports them (see
        # studio.ui.file_drop): the view's own handling accepted every drag and dropped it.
        self.setAcceptDrops(False)
        self.viewport().setAcceptDrops(False)
        self._moving = False
        self.closed = False
        self._follow: str | None = None  # a turn to bring into view once the layout has it
        self._pointer_on_view = False  # a press or double click is being handled: its card stays put
        self._card_drag: tuple[QPoint, int, int] | None = None
        """A left press on a card: where it was and the scroll bars' values then (a drag pans)."""
        self._panning = False
        self.canvas_menu: QMenu | None = None
        """The menu opened last on the canvas between cards (deleted once closed: see
        ``shiboken6.isValid``)."""
        self._map_press: QPoint | None = None
        """A left press on the zoomed-out map: where it was (a release near it picks a turn)."""
        self.horizontalScrollBar().valueChanged.connect(self._viewport_moved)
        self.verticalScrollBar().valueChanged.connect(self._viewport_moved)
        scene.layout_changed.connect(self._viewport_moved)
        scene.layout_changed.connect(self._follow_pending)
        self.setAccessibleName(TREE_NAME)
        scene.current_changed.connect(self.describe_selection)
        scene.current_changed.connect(self._move_focus_ring)
        self._ring_rect: QRectF | None = None
        """Where the focus ring was drawn last (scene), to clear it when the selection moves."""

    def describe_selection(self) -> None:
        """Name the selected turn to assistive technology (the cards are graphics items, which
        it cannot see): the view's accessible name and description say which turn is selected
        and what it is. Qt tells assistive technology of a changed name or description itself
        (a NameChanged or DescriptionChanged event), so a screen reader reads the newly selected
        turn out as the arrow keys move; a change of the turn's status is told the same way."""
        if self.closed or not shiboken6.isValid(self.tree_scene):
            return
        summary = self.tree_scene.current_summary()
        if summary is None:
            self.setAccessibleName(TREE_NAME)
            self.setAccessibleDescription("")
            return
        spoken = spoken_turn(self.tree_scene.document.tree, summary, self.tree_scene.branch_ids)
        if spoken.name == self.accessibleName() and spoken.description == self.accessibleDescription():
            return
        self.setAccessibleDescription(spoken.description)  # first: a reader reading the name on its change reads it too
        self.setAccessibleName(spoken.name)

    # -- the keyboard's focus ring ------------------------------------------------------------

    def focus_ring_rect(self) -> QRectF | None:
        """Where the ring around the selected card goes (scene), None with no card selected.
        The ring shows only while the tree has the keyboard focus: the selected card's own
        outline looks the same focused or not, so who works from the keyboard could not tell
        whether the arrow keys would move through the tree."""
        cell = self.tree_scene.cells.get(self.tree_scene.current_id or "")
        if cell is None:
            return None
        gap = FOCUS_RING_GAP
        return QRectF(cell.x - gap, cell.y - gap, CARD_W + 2 * gap, CARD_H + 2 * gap)

    def _repaint_scene_rect(self, rect: QRectF | None) -> None:
        if rect is not None:
            pad = int(FOCUS_RING_PX) + 2  # the cosmetic pen's width, in pixels, outside the rect
            area = self.mapFromScene(rect).boundingRect().adjusted(-pad, -pad, pad, pad)
            self.viewport().update(area)

    def _move_focus_ring(self) -> None:
        if self.closed or not shiboken6.isValid(self.tree_scene):
            return
        self._repaint_scene_rect(self._ring_rect)
        self._ring_rect = self.focus_ring_rect()
        self._repaint_scene_rect(self._ring_rect)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        super().focusInEvent(event)
        self._move_focus_ring()

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self._move_focus_ring()

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:  # noqa: N802
        super().drawForeground(painter, rect)
        ring = self.focus_ring_rect() if self.hasFocus() else None
        if ring is None or not ring.intersects(QRectF(rect)):
            return
        pen = QPen(palette.TEXT, FOCUS_RING_PX, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)  # as thick on screen at every zoom
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        card = self.tree_scene.cards.get(self.tree_scene.current_id or "")
        if card is not None and card.foldable:
            # the ring passes where the fold control sits: it goes round it, not through its
            # sign (the dashed line across its "−" read as "+")
            around = QPainterPath()
            around.addRect(ring.adjusted(-2 * FOCUS_RING_PX, -2 * FOCUS_RING_PX, 2 * FOCUS_RING_PX, 2 * FOCUS_RING_PX))
            control = QPainterPath()
            center = ring.topLeft() + QPointF(FOCUS_RING_GAP, FOCUS_RING_GAP) + FOLD_CENTER
            reach = FOLD_RADIUS + FOCUS_RING_GAP
            control.addEllipse(center, reach, reach)
            painter.setClipPath(around.subtracted(control), Qt.ClipOperation.IntersectClip)
        painter.drawRoundedRect(ring, RADIUS + FOCUS_RING_GAP, RADIUS + FOCUS_RING_GAP)
        painter.restore()

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def _viewport_moved(self, *_args: object) -> None:
        """Create the cards that just came into view (the scene creates them lazily)."""
        if self._moving or self.closed or not shiboken6.isValid(self.tree_scene):
            return
        rect = self.visible_scene_rect()
        margin = 0.25 * max(rect.width(), rect.height())
        self.tree_scene.materialize(rect.adjusted(-margin, -margin, margin, margin))

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        self._viewport_moved()
        self._keep_selection_whole()

    def _keep_selection_whole(self) -> None:
        """The view narrowed (the queue came out in a small window, say) and cut the selected
        card at its edge: the view moves to show it whole. A card the author scrolled out of
        view stays out of it."""
        if self.closed or not shiboken6.isValid(self.tree_scene):
            return
        cell = self.tree_scene.cells.get(self.tree_scene.current_id or "")
        if cell is None:
            return
        card = QRectF(cell.x, cell.y, CARD_W, CARD_H)
        shown = self.visible_scene_rect()
        if shown.intersects(card) and not shown.contains(card) \
                and shown.width() >= CARD_W and shown.height() >= CARD_H:
            self.ensureVisible(card, 20, 20)

    # -- zoom ------------------------------------------------------------------------------

    @property
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, scale: float) -> None:
        """Zoom to ``scale``, kept between MIN_SCALE and MAX_SCALE. Fit can go further out than
        MIN_SCALE (a tree of thousands of turns): zooming out from there stays where it is, and
        the limit never turns a step out into a jump in (nor a step in into one out)."""
        scale = max(min(MIN_SCALE, self.zoom), min(max(MAX_SCALE, self.zoom), scale))
        factor = scale / self.zoom
        if abs(factor - 1) > 1e-6:
            self._moving = True
            try:
                self.scale(factor, factor)
            finally:
                self._moving = False
        self._zoom_updated()

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self.zoom * factor)

    def zoom_in(self) -> None:
        """A zoom key, button or menu item: the selected card keeps its place on screen."""
        self._zoom_on_selection(ZOOM_STEP)

    def zoom_out(self) -> None:
        self._zoom_on_selection(1 / ZOOM_STEP)

    def _zoom_on_selection(self, factor: float) -> None:
        """Zoom by ``factor`` around the selected turn's card when it is in view, else around the
        view's centre. (The mouse's anchor, right for Ctrl+wheel, zoomed a key press around
        wherever the pointer rested, or the centre: the selected card slid out of view.)"""
        self.zoom_around(self._selected_card_center(), factor)

    def zoom_around(self, anchor: QPointF | None, factor: float) -> None:
        """Zoom by ``factor`` keeping the scene point ``anchor`` where it is on screen (None:
        the view's centre)."""
        previous = self.transformationAnchor()
        # around the centre, not the pointer, when no selected card is in view: the mouse's
        # anchor zoomed around wherever the pointer happened to rest over the canvas
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor if anchor is not None
                                     else QGraphicsView.ViewportAnchor.AnchorViewCenter)
        on_screen = self.mapFromScene(anchor) if anchor is not None else None
        try:
            self.zoom_by(factor)
        finally:
            self.setTransformationAnchor(previous)
        if anchor is None or on_screen is None:
            return
        drift = self.mapFromScene(anchor) - on_screen
        if drift.manhattanLength():
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + drift.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() + drift.y())

    def _selected_card_center(self) -> QPointF | None:
        """The centre of the selected turn's card, if any part of it is in view."""
        cell = self.tree_scene.cells.get(self.tree_scene.current_id or "")
        if cell is None:
            return None
        rect = QRectF(cell.x, cell.y, CARD_W, CARD_H)
        visible = self.visible_scene_rect()
        return visible.intersected(rect).center() if visible.intersects(rect) else None

    def reset_zoom(self) -> None:
        self.set_zoom(1.0)

    def fit_all(self) -> None:
        if self.closed:
            return
        rect = self.tree_scene.tree_rect().adjusted(-40, -40, 40, 40)
        self._moving = True
        try:
            self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
            if self.zoom > 1.0:
                factor = 1.0 / self.zoom
                self.scale(factor, factor)
            self.centerOn(rect.center())
        finally:
            self._moving = False
        self._zoom_updated()

    def _zoom_updated(self) -> None:
        if self.closed:
            return
        self.tree_scene.set_overview(self.zoom < tree_view_overview_scale())
        self.tree_scene.edges.setVisible(self.zoom >= EDGES_MIN_SCALE)
        self._viewport_moved()
        self.zoom_changed.emit(self.zoom)

    def center_on_node(self, node_id: str, *, only_if_hidden: bool = True) -> None:
        """Bring a turn's card into view; a turn the layout doesn't have yet (just added,
        laid out when its change set arrives) is brought into view as soon as it has one."""
        cell = self.tree_scene.cells.get(node_id)
        if cell is None:
            self._follow = node_id
            return
        self._follow = None
        rect = QRectF(cell.x, cell.y, CARD_W, CARD_H)
        if self._pointer_on_view and self.visible_scene_rect().intersects(rect):
            return  # a card just clicked: scrolling now would move it from under the pointer
        if only_if_hidden:
            if not self.visible_scene_rect().contains(rect):
                self.ensureVisible(rect, 60, 60)
                self._snap_left(rect)
        else:
            self.centerOn(rect.center())
            self._snap_left(rect)

    def forget_pending_follow(self) -> None:
        """Drop the turn waiting to be brought into view once laid out: another turn was selected since."""
        self._follow = None

    def _follow_pending(self) -> None:
        if self._follow is not None and self._follow in self.tree_scene.cells:
            self.center_on_node(self._follow)

    def show_around(self, node_id: str, zoom: float = DEFAULT_ZOOM) -> None:
        """The zoom a project opens at: readable cards, centred on ``node_id`` (the Start card,
        when it fits too, is shown whole rather than cut by the left edge)."""
        if self.closed:
            return
        self.set_zoom(zoom)
        if self._fits(zoom):
            self._moving = True
            try:
                self.centerOn(self.tree_scene.tree_rect().center())
            finally:
                self._moving = False
            self._viewport_moved()
        else:
            self.center_on_node(node_id, only_if_hidden=False)

    def _fit_zoom(self) -> float:
        rect = self.tree_scene.tree_rect().adjusted(-40, -40, 40, 40)
        viewport = self.viewport().rect()
        return min(viewport.width() / max(1.0, rect.width()), viewport.height() / max(1.0, rect.height()))

    def _fits(self, zoom: float) -> bool:
        return self._fit_zoom() >= zoom

    def _snap_left(self, keep: QRectF) -> None:
        """Scroll right, if needed, so that no card is cut by the view's left edge, while ``keep``
        stays whole: the left edge then falls in the gap between two columns."""
        visible = self.visible_scene_rect()
        left = visible.left()
        column_left = (left // COLUMN_WIDTH) * COLUMN_WIDTH
        if left <= -EDGE_PAD or column_left + CARD_W <= left:
            return  # left of the Start card, or in a gap between columns: nothing is cut
        # Show the cut column whole if the turn still fits, else skip to the next column.
        whole = column_left - EDGE_PAD
        if keep.right() + 8 <= whole + visible.width():
            shift = whole - left
        else:
            shift = column_left + COLUMN_WIDTH - EDGE_PAD - left
            if keep.left() < left + shift:
                return
        self._moving = True
        try:
            self.centerOn(visible.center().x() + shift, visible.center().y())
        finally:
            self._moving = False
        self._viewport_moved()

    # -- events ----------------------------------------------------------------------------

    def map_node_at(self, pos: QPoint) -> str | None:
        """The turn of the map cell at ``pos`` (viewport coordinates); None off the map (the
        cards are shown, not the map) or between cells."""
        if not self.tree_scene.overview_on:
            return None
        return self.tree_scene.node_at(self.mapToScene(pos))

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802
        """Zoomed out to the map, a cell's tooltip names its turn (cards, hidden there, have their own)."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent) and self.tree_scene.overview_on:
            node_id = self.map_node_at(event.pos())
            if node_id is None:
                QToolTip.hideText()
                event.ignore()
            else:
                QToolTip.showText(event.globalPos(), self.tree_scene.tooltip(node_id), self.viewport())
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._card_drag = None
        self._map_press = None
        if self.tree_scene.overview_on:
            node_id = self.map_node_at(event.position().toPoint())
            if event.button() == Qt.MouseButton.LeftButton:
                self._map_press = event.position().toPoint()
            elif event.button() == Qt.MouseButton.RightButton and node_id is not None:
                self.tree_scene.node_clicked.emit(node_id)  # as a card's right press selects it
        self._pointer_on_view = True
        try:
            super().mousePressEvent(event)
        finally:
            self._pointer_on_view = False
        scene = self.scene()
        if event.button() == Qt.MouseButton.LeftButton and scene is not None and scene.mouseGrabberItem() is not None:
            # A card took the press (it selects its turn), so Qt's hand drag will not start.
            self._card_drag = (event.position().toPoint(), self.horizontalScrollBar().value(),
                               self.verticalScrollBar().value())

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        node_id = self.map_node_at(event.position().toPoint())
        if node_id is not None and event.button() == Qt.MouseButton.LeftButton:
            self._map_press = None
            self.tree_scene.node_clicked.emit(node_id)
            self.show_around(node_id)  # a cell is too small to read: zoom in to its card
            event.accept()
            return
        self._pointer_on_view = True
        try:
            super().mouseDoubleClickEvent(event)
        finally:
            self._pointer_on_view = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        drag = self._card_drag
        if drag is not None and event.buttons() & Qt.MouseButton.LeftButton:
            start, h_value, v_value = drag
            moved = event.position().toPoint() - start
            if self._panning or moved.manhattanLength() >= QApplication.startDragDistance():
                if not self._panning:
                    self._panning = True
                    self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                self.horizontalScrollBar().setValue(h_value - moved.x())
                self.verticalScrollBar().setValue(v_value - moved.y())
                event.accept()
                return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self._card_drag = None
            press, self._map_press = self._map_press, None
            if press is not None:
                moved = event.position().toPoint() - press
                node_id = self.map_node_at(press)
                if node_id is not None and moved.manhattanLength() < QApplication.startDragDistance():
                    self.tree_scene.node_clicked.emit(node_id)  # a click, not a drag that pans the map
            if self._panning:
                self._panning = False
                # The drag mode's own cursor; Qt puts a card's back at the next move over one.
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
        super().mouseReleaseEvent(event)  # the card that took the press lets go of the mouse

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        event.ignore()  # nothing on the canvas takes a drop: the window decides (see __init__)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        event.ignore()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            delta = event.angleDelta().y()
            if delta:
                self.zoom_by(ZOOM_STEP ** (delta / 120))
            event.accept()
            return
        super().wheelEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802
        """The menu key (or Shift+F10) opens the selected turn's menu beside its card; the
        mouse's right click opens the menu of the card under it (the cards' own handler), or
        zoomed out to the map, of the cell under it."""
        current = self.tree_scene.current_id
        if event.reason() != QContextMenuEvent.Reason.Keyboard:
            node_id = self.map_node_at(event.pos())
            if node_id is not None:  # a cell of the zoomed-out map: its turn's menu
                event.accept()
                self.tree_scene.node_context_menu.emit(node_id, event.globalPos())
                return
            super().contextMenuEvent(event)
            if not event.isAccepted():  # no card under the pointer: the canvas's own menu
                event.accept()
                self.open_canvas_menu(event.pos(), event.globalPos())
            return
        if current is None:
            super().contextMenuEvent(event)
            return
        event.accept()
        cell = self.tree_scene.cells.get(current)
        if cell is None:
            return
        self.center_on_node(current)
        corner = self.mapFromScene(QPointF(cell.x + CARD_W * 0.5, cell.y + CARD_H * 0.5))
        self.tree_scene.node_context_menu.emit(current, self.viewport().mapToGlobal(corner))

    def open_canvas_menu(self, pos: QPoint, global_pos: QPoint) -> QMenu:
        """The menu of the canvas between cards (``pos`` in viewport coordinates): zoom in or
        out around that point, fit the tree, bring the selected turn into view. Each item is
        off where it would do nothing."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        anchor = self.mapToScene(pos)
        # The View menu's keys after a tab, shown in the menu's key column (not shortcuts of
        # their own: those would be ambiguous with the window's while the menu is open).
        zoom_in = menu.addAction("Zoom in\tCtrl++", lambda: self.zoom_around(anchor, ZOOM_STEP))
        zoom_in.setEnabled(self.zoom < MAX_SCALE)
        zoom_out = menu.addAction("Zoom out\tCtrl+-", lambda: self.zoom_around(anchor, 1 / ZOOM_STEP))
        zoom_out.setEnabled(self.zoom > MIN_SCALE)
        menu.addAction("Fit tree to view\tCtrl+0", self.fit_all)
        current = self.tree_scene.current_id
        cell = self.tree_scene.cells.get(current or "")
        show = menu.addAction("Show the selected turn",
                              lambda: self.center_on_node(current, only_if_hidden=False) if current else None)
        show.setEnabled(cell is not None and not self.visible_scene_rect().contains(card_rect_at(cell)))
        menu.popup(global_pos)
        self.canvas_menu = menu
        return menu

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key = Qt.Key(event.key())
        modifiers = event.modifiers()
        plain = not (modifiers & ~Qt.KeyboardModifier.KeypadModifier)
        moves = {Qt.Key.Key_Left: "parent", Qt.Key.Key_Right: "child", Qt.Key.Key_Up: "prev",
                 Qt.Key.Key_Down: "next", Qt.Key.Key_Home: "first", Qt.Key.Key_End: "last"}
        if plain and key in moves:
            self.navigate.emit(moves[key])
            event.accept()
            return
        zoom_key = not (modifiers & ~ZOOM_KEY_MODIFIERS)
        if zoom_key and key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal, Qt.Key.Key_Minus):
            if key == Qt.Key.Key_Minus:
                self.zoom_out()
            else:
                self.zoom_in()
            event.accept()
            return
        super().keyPressEvent(event)
