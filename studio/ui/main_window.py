"""The studio's main window: menus, toolbar, docks, and the open project's workspace."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QCloseEvent, QDesktopServices, QIcon, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QDockWidget,
    QFileDialog,
    QFrame,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressDialog,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QTabBar,
    QToolBar,
    QToolButton,
    QWidget,
)

from studio.core.errors import StudioError
from studio.storage import Project
from studio.storage.bundle import looks_like_bundle
from studio.storage.project import project_damage
from studio.storage.rescue import readable_name
from studio.ui.damaged_project import damaged_notice, damaged_reason, rescued_notice
from studio.ui.dialogs.cheat_sheet import CheatSheet
from studio.ui.dialogs.close_with_jobs import close_with_jobs_box
from studio.ui.dialogs.export_dialog import ExportChoices, ExportDialog, safe_file_name
from studio.ui.dialogs.settings_dialog import SettingsDialog
from studio.ui.elided_label import ElidedLabel
from studio.ui.engine_picker import EnginePicker
from studio.ui.engine_status import engine_availability
from studio.ui.file_drop import FileDrop
from studio.ui.folds_kept import FoldsKept
from studio.ui.gui_tuning import settle_heap
from studio.ui.icons import icon
from studio.ui.inspector_width import InspectorWidth
from studio.ui.media_cache import ClipCache, PosterCache
from studio.ui.project_watch import ProjectFolderWatch
from studio.ui.services import AppServices
from studio.ui.session import ProjectCopy, ProjectSession, ReadOnlyReason, is_free_to_write, open_for_window
from studio.ui.settings import StudioSettings, usable_engine_values
from studio.ui.tab_order import entry_target
from studio.ui.welcome import WelcomeContent, WelcomePage, shortcut_rows, shortcut_text
from studio.ui.window_actions import StudioActions
from studio.ui.window_layout import INSPECTOR_MIN, LEFT_MIN, WIDE_WINDOW
from studio.ui.window_state import DEFAULT_SIZE, restore_window
from studio.ui.workspace import Workspace

if TYPE_CHECKING:
    from studio.engines.config import EngineConfig
    from studio.export.options import ExportOptions
    from studio.ui.sample_story import SampleBuilder

log = logging.getLogger(__name__)

MAX_OUT_OF_SIGHT_STOPS = 4
"""How many out-of-sight tab bars one Tab press steps past (a window has one or two)."""

COMPACT_TOOLBAR_WIDTH = 1280
"""Below this width the toolbar's buttons show their icons alone (:meth:`MainWindow._fit_toolbar`)."""


def in_sight(widget: QWidget) -> bool:
    """Whether ``widget`` is drawn somewhere in its window (shown, and not wholly covered or
    moved out of the window)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


def minimum_height_for_width(widget: QWidget, width: int) -> int:
    """The least height ``widget`` (laid out by a box layout) can have at ``width``: its
    word-wrapped labels as tall as their text wraps there, everything else at its minimum.

    Not the layout's heightForWidth: that is the height every item would like (the cast
    panel's lists at their preferred heights), which made the panel taller than its dock."""
    layout = widget.layout()
    if not isinstance(layout, QBoxLayout):
        return widget.minimumSizeHint().height()
    margins = layout.contentsMargins()
    inner = max(0, width - margins.left() - margins.right())
    heights = []
    for index in range(layout.count()):
        item = layout.itemAt(index)
        if item is None or item.isEmpty():
            continue
        heights.append(item.heightForWidth(inner) if item.hasHeightForWidth() else item.minimumSize().height())
    return sum(heights) + layout.spacing() * max(0, len(heights) - 1) + margins.top() + margins.bottom()


class TallScroll(QScrollArea):
    """A frameless scroll area that asks for its widget's width but not its height: a dock of
    it (the cast panel, about 430 pixels tall) no longer made a window of 480 grow, and scrolls
    instead.

    It lays its widget out itself, as tall as the dock, or as tall as the widget's least
    height at the dock's width (then it scrolls). Left to QScrollArea (a resizable widget),
    a widget with word-wrapped labels was given its preferred height for its width: the
    cast panel, its lists at their preferred heights, came out taller than the dock when it
    first opened, and its hint line was cut at the bottom (or hidden with no scroll bar to
    reach it after a resize)."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(False)  # laid out here (see _fit_widget)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # it keeps its width
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop of its own: Tab goes to what it holds
        self.setWidget(widget)
        widget.installEventFilter(self)  # its content changed (a note shown, a longer text): fitted again

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        widget, hint = self.widget(), super().minimumSizeHint()
        if widget is None:
            return hint
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        return QSize(widget.minimumSizeHint().width() + bar, hint.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self._fit_widget()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_widget()

    def _fit_widget(self) -> None:
        """The widget as wide as the view (less a scroll bar when it must scroll), and as tall
        as the view or its least height there, whichever is more."""
        widget = self.widget()
        if widget is None:
            return
        room = self.maximumViewportSize()
        width = max(widget.minimumSizeHint().width(), room.width())
        need = minimum_height_for_width(widget, width)
        if need > room.height():  # it scrolls: the scroll bar takes its width
            width = max(widget.minimumSizeHint().width(), room.width() - self.verticalScrollBar().sizeHint().width())
            need = minimum_height_for_width(widget, width)
        size = QSize(width, max(need, room.height()))
        if widget.size() != size:
            widget.resize(size)


QUEUE_HIDE_MS = 1500
"""The queue stays this long after its last job ends (the user sees it finish), then hides."""
QUEUE_SHOW_MS = 1
"""The queue dock comes out on a later turn of the event loop than the jobs that call it:
showing it lays out and repaints the whole window (about 6 ms), which would otherwise add
to the work of taking in the new jobs in one stretch of the GUI thread."""


TIDIED_PREFIX = "removed "
"""How the lines of what opening a project cleared away begin (see ``studio.storage.unused_media``)."""


NOTHING_TO_UNDO_TIP = "Nothing to undo since the project was opened; earlier changes are saved"
"""Undo's tooltip while it is off: the undo history is not kept when a project closes."""


LOCK_WATCH_MS = 2000
"""How often a project opened read-only because another studio held it is looked at: once
that one closes it, the read-only line says it can be reopened for editing."""


class MainWindow(QMainWindow):
    def __init__(self, settings: StudioSettings, services: AppServices,
                 loop: asyncio.AbstractEventLoop | None = None) -> None:
        super().__init__()
        self.loop = loop
        self.settings = settings
        self.services = services
        self.registry = services.registry
        self.session: ProjectSession | None = None
        self.workspace: Workspace | None = None
        self.folder_watch: ProjectFolderWatch | None = None
        """Says when the open project's folder is moved or deleted while it is open."""
        self.folds_kept: FoldsKept | None = None
        """Writes the open project's folds to the settings as they change."""
        self.last_error: StudioError | None = None
        self._finishing = False
        self._closing_after_queue = False
        """What the queue is finished for: closing the window (else opening or closing a project)."""
        self._finishing_notice = ""
        """What the status bar says while the queue is finished ("Finishing the queued jobs…")."""
        self._cast_hidden_for_room = False
        """The cast dock was hidden because the window was too narrow for it (not by the user):
        it comes back once the window is wide again (see :meth:`resizeEvent`)."""
        self._stop_waiting: Callable[[], None] | None = None
        """Drops the pending "finish the queue, then ..." (its project was closed another way)."""
        self.copying: ProjectCopy | None = None
        """The copy of the open project being saved (Save a copy…), if one is."""
        self._lock_watch = QTimer(self)
        """While a project another studio holds is open read-only: is it free again?"""
        self._lock_watch.setInterval(LOCK_WATCH_MS)
        self._lock_watch.timeout.connect(self._check_lock_released)
        self._export_choices: dict[Path, ExportChoices] = {}
        """Each project's last export choices in this window (Ctrl+E opens with them again)."""
        self.welcome: WelcomePage | None = None
        self._docks_hidden_for_welcome: list[QDockWidget] | None = None
        self._queue_hide_timer = QTimer(self)
        self._queue_hide_timer.setSingleShot(True)
        self._queue_hide_timer.setInterval(QUEUE_HIDE_MS)
        self._queue_hide_timer.timeout.connect(self._hide_idle_queue)
        self._queue_show_timer = QTimer(self)
        self._queue_show_timer.setSingleShot(True)
        self._queue_show_timer.setInterval(QUEUE_SHOW_MS)
        self._queue_show_timer.timeout.connect(self._show_busy_queue)
        self.sample_builder: SampleBuilder | None = None  # building the sample story, if it is
        self.sample_progress: QProgressDialog | None = None
        self.posters = PosterCache(self)
        self.clips = ClipCache(self)
        self.setWindowTitle("Kamishibai Studio")
        self.setWindowIcon(icon("kamishibai"))
        self.resize(DEFAULT_SIZE)
        self.setDockNestingEnabled(True)
        self.actions_ = StudioActions(self)
        self._build_menus()
        self._build_toolbar()
        self._build_docks()
        self.status_label = ElidedLabel("", self)  # a long message must not widen the window
        self.statusBar().addWidget(self.status_label, 1)
        self.warning_label = ElidedLabel("", self)
        """A warning whose message box is still open, once a later message took the status
        line: the start's notice about settings that can't be saved stayed while "Opened X"
        replaced it. Hidden when there is none, or when the status line says it itself."""
        self.warning_label.setObjectName("statusWarning")
        self.warning_label.hide()
        self.statusBar().addWidget(self.warning_label, 1)
        self._open_warnings: list[tuple[QMessageBox, str]] = []
        """The warnings shown by :meth:`show_error` whose boxes are open, oldest first."""
        self.jobs_label = QLabel("", self)
        self.jobs_label.setObjectName("dimLabel")
        self.statusBar().addPermanentWidget(self.jobs_label)
        self._connect_actions()
        self.file_drop = FileDrop(self)  # a project folder dropped opens, a story file is imported
        current = self.settings.engine if self.settings.engine in self.registry else services.default_engine
        self.engine_picker.set_engines(self.registry, current, self.engine_config())  # also before a project opens
        # before the welcome page: it sets aside the docks the restored layout shows
        self._moving_docks = True  # the layout restored is the studio's, not a dock placed by hand now
        try:
            restore_window(self, self.settings.geometry(), self.settings.window_state())
        finally:
            self._moving_docks = False
        self.inspector_width.chosen = self.settings.inspector_width()  # the user's, from the last window
        # a cast dock the last window hid for lack of room comes back once this one is wide
        self._cast_hidden_for_room = self.settings.cast_hidden_for_room() and self.cast_dock.isHidden()
        self.show_welcome()
        self._set_project_actions_enabled(False)
        self._update_history_actions()
        if self.settings.device_problem():
            self.show_message(f"The saved device was refused (the CPU is used): {self.settings.device_problem()}")

    # -- chrome ------------------------------------------------------------------------------

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.menus = {}
        for group, actions in self.actions_.groups:
            menu = bar.addMenu(f"&{group}")
            menu.setToolTipsVisible(True)  # an item that is off says why (the actions' tooltips)
            self.menus[group] = menu
            if group == "Edit":  # the history as the writer has it now: a re-roll's takes land one by one
                menu.aboutToShow.connect(self._update_history_actions)
            for action in actions:
                menu.addAction(action)
                if action is self.actions_.export and group == "File":
                    self.recent_menu = menu.addMenu("Open &recent")
                    self.recent_menu.aboutToShow.connect(self._fill_recent)
                    menu.addSeparator()

    def _build_toolbar(self) -> None:
        toolbar = QToolBar("Main", self)
        toolbar.setObjectName("mainToolbar")
        toolbar.setIconSize(QSize(20, 20))
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toolbar.setMovable(False)
        a = self.actions_
        for action in (a.new_turn, a.generate, a.reroll, a.reroll_branch, a.fork, a.delete):
            toolbar.addAction(action)
        toolbar.addSeparator()
        for action in (a.undo, a.redo):
            toolbar.addAction(action)
        toolbar.addSeparator()
        for action in (a.play, a.fit, a.export):
            toolbar.addAction(action)
        for action in (a.new_turn, a.reroll_branch, a.fork, a.delete, a.fit, a.redo):
            button = toolbar.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        self._labelled_buttons = [button for action in (a.generate, a.reroll, a.play, a.export, a.undo)
                                  if isinstance(button := toolbar.widgetForAction(action), QToolButton)]
        a.new_turn.setIconText("New turn")
        a.reroll.setIconText("Re-roll")
        a.generate.setIconText("Generate")
        a.play.setIconText("Play")
        a.export.setIconText("Export")
        a.undo.setIconText("Undo")
        spacer = QWidget(toolbar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        toolbar.addWidget(spacer)
        self.engine_picker = EnginePicker(toolbar)
        self.engine_picker.engine_changed.connect(self._engine_changed)
        toolbar.addWidget(self.engine_picker)
        self.addToolBar(toolbar)
        self.toolbar = toolbar

    def _build_docks(self) -> None:
        def dock(title: str, name: str, area: Qt.DockWidgetArea) -> QDockWidget:
            widget = QDockWidget(title, self)
            widget.setObjectName(name)
            widget.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                               | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                               | QDockWidget.DockWidgetFeature.DockWidgetClosable)
            self.addDockWidget(area, widget)
            return widget

        self.inspector_dock = dock("Inspector", "inspectorDock", Qt.DockWidgetArea.RightDockWidgetArea)
        self.queue_dock = dock("Queue", "queueDock", Qt.DockWidgetArea.LeftDockWidgetArea)
        self.cast_dock = dock("Cast && world", "castDock", Qt.DockWidgetArea.LeftDockWidgetArea)
        self.tabifyDockWidget(self.queue_dock, self.cast_dock)
        self.queue_dock.raise_()
        self._set_aside: list[QDockWidget] = []
        """Left docks in a window too narrow to hold them beside the tree: they wait in a tab
        beside the inspector (see :meth:`_place_left_docks`)."""
        self._moving_docks = False
        self._placed_by_user: set[QDockWidget] = set()
        """Left docks the user dragged or floated: where they put them, they stay (see _moved_by_hand)."""
        self._minimum_eased = False
        """Whether the window's minimum width is set below its layout's (see :meth:`_ease_minimum_width`)."""
        self.inspector_width = InspectorWidth(self, self.inspector_dock, lambda: bool(self._left_docks()))
        """The inspector's width: the window's rule, or the user's once they drag its splitter."""
        for left in (self.queue_dock, self.cast_dock):
            left.dockLocationChanged.connect(lambda _area, left=left: self._moved_by_hand(left))
            left.topLevelChanged.connect(lambda _floating, left=left: self._moved_by_hand(left))
        for each in (self.inspector_dock, self.queue_dock, self.cast_dock):
            # shown, hidden, moved or floated: whether the window may be narrower than its layout changes
            each.visibilityChanged.connect(lambda _shown: self._ease_minimum_width())
            each.dockLocationChanged.connect(lambda _area: self._ease_minimum_width())
            each.topLevelChanged.connect(lambda _floating: self._ease_minimum_width())
        self._size_docks()
        view_menu = self.menus["View"]
        view_menu.addSeparator()
        for widget in (self.inspector_dock, self.queue_dock, self.cast_dock):
            action = widget.toggleViewAction()
            view_menu.addAction(action)
            # asked for, a dock comes to the front of its tab group (a narrow window sets the
            # queue and cast docks in a tab beside the inspector)
            action.triggered.connect(lambda checked, dock=widget: self._bring_out(dock) if checked else None)
        self.cast_dock.toggleViewAction().triggered.connect(self._cast_chosen_by_user)
        self.reset_panel_widths = QAction("Reset panel &widths", self)
        self.reset_panel_widths.setStatusTip("Give the inspector, the queue and the cast their automatic widths "
                                             "again (as double-clicking a panel's edge does)")
        self.reset_panel_widths.triggered.connect(self.reset_dock_widths)
        self.inspector_width.reset_asked.connect(self.reset_dock_widths)
        view_menu.addAction(self.reset_panel_widths)
        view_menu.addSeparator()
        self.dock_keys: list[QAction] = []
        """Go to the inspector, the queue, the cast (Alt+1, Alt+2, Alt+3): each shown, brought
        to the front of its tab group and given the keyboard, as an IDE's tool windows are."""
        for number, (title, widget) in enumerate((("&Inspector", self.inspector_dock), ("&Queue", self.queue_dock),
                                                  ("&Cast && world", self.cast_dock)), start=1):
            go = QAction(f"Go to {title}", self)
            go.setShortcut(QKeySequence(f"Alt+{number}"))
            go.triggered.connect(lambda _checked=False, dock=widget: self.go_to_dock(dock))
            view_menu.addAction(go)
            self.dock_keys.append(go)

    def reset_dock_widths(self) -> None:
        """Give the docks the widths the window's rule gives them (the inspector forgets a
        width the user dragged it to, here and after a restart)."""
        self.inspector_width.forget_chosen()
        self._size_docks()
        self.show_message("The panels have their automatic widths again.")

    def go_to_dock(self, dock: QDockWidget) -> None:
        """Show ``dock`` (floating or docked, in front of its tab group) and give it the keyboard."""
        if dock is self.cast_dock:
            self._cast_chosen_by_user()
        dock.show()
        self._bring_out(dock)
        inner = dock.widget()
        if inner is None:
            return
        focused = QApplication.focusWidget()
        if focused is not None and inner.isAncestorOf(focused):
            return  # already there: keep the place
        tab = Qt.FocusPolicy.TabFocus
        takers = [inner, *inner.findChildren(QWidget)]  # itself, then its widgets as they were made
        first = next((w for w in takers if w.focusPolicy().value & tab.value and w.isEnabled()
                      and w.isVisibleTo(dock)), None)
        if first is not None:
            first.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _bring_out(self, dock: QDockWidget) -> None:
        """``dock``, just shown by the user (View menu, Alt+1..3), in front of its tab group. One
        coming out at the left gets the width the window's rule gives it, so that the tree keeps
        its share (shown as it was, the cast dock took what its content asked, about 580 pixels
        of a 1280-pixel window), and the selected turn stays in view."""
        dock.raise_()
        if dock not in self._left_docks() or dock in self._set_aside:
            return
        self._size_docks()
        workspace = self.workspace
        if workspace is not None:
            # once the layout has given the tree its new width
            QTimer.singleShot(0, lambda: None if workspace.closed else workspace.view.center_on_node(
                workspace.current_id))

    def _left_docks(self) -> list[QDockWidget]:
        """The queue and cast docks shown in the window (not floating)."""
        return [d for d in (self.queue_dock, self.cast_dock) if not d.isHidden() and not d.isFloating()]

    def _size_docks(self) -> None:
        """Give the docks room while the canvas keeps at least half of the window's width (the
        inspector keeps a width the user gave it, see :class:`InspectorWidth`)."""
        left_docks = self._left_docks()
        widths = self.inspector_width.widths()
        docks, sizes = [self.inspector_dock], [widths.inspector]
        if left_docks:
            docks.append(left_docks[0])
            sizes.append(widths.left)
            # a left dock can't be narrower than its content allows (the cast panel's lists):
            # the inspector gives up what it takes beyond its share, down to its own narrowest
            beyond = max(d.minimumSizeHint().width() for d in left_docks) - widths.left
            if beyond > 0:
                sizes[0] = max(INSPECTOR_MIN, widths.inspector - beyond)
        self.resizeDocks(docks, sizes, Qt.Orientation.Horizontal)

    def _left_dock_fits(self, dock: QDockWidget) -> bool:
        """Whether ``dock`` fits in the left dock area without widening the window: beside the
        tree, the branch player and the inspector, each at its narrowest."""
        central = self.centralWidget()
        if central is None or central is self.welcome:
            return True  # the welcome page takes any width
        separator = self.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, self)
        needed = central.minimumSizeHint().width() + max(LEFT_MIN, dock.minimumSizeHint().width()) + separator
        inspector = self.inspector_dock
        if not inspector.isHidden() and not inspector.isFloating():
            needed += inspector.minimumSizeHint().width() + separator
        return self.width() >= needed

    def _place_left_docks(self) -> None:
        """In a window too narrow for the queue or cast dock beside the tree, it waits in a tab
        beside the inspector (hidden, until it comes out; the inspector stays in front): shown at
        the left it widened the window past a half-screen (the queue comes out with every
        Generate). Once the window has room, it goes back to the left. A dock the user moved
        elsewhere stays there."""
        if self._moving_docks:
            return
        inspector = self.inspector_dock
        can_set_aside = not inspector.isHidden() and not inspector.isFloating()
        self._moving_docks = True
        try:
            for dock in (self.queue_dock, self.cast_dock):
                if dock.isFloating():
                    continue
                if dock in self._placed_by_user:
                    continue
                fits = self._left_dock_fits(dock)
                if dock in self._set_aside and (fits or not can_set_aside):
                    self._bring_back(dock)
                elif dock not in self._set_aside and not fits and can_set_aside \
                        and self.dockWidgetArea(dock) == Qt.DockWidgetArea.LeftDockWidgetArea:
                    self._set_aside.append(dock)
                    hidden = dock.isHidden()
                    self.tabifyDockWidget(inspector, dock)
                    dock.setHidden(hidden)
                    inspector.raise_()
        finally:
            self._moving_docks = False
        self._ease_minimum_width()

    def _ease_minimum_width(self) -> None:
        """Let the window be made narrower than its left docks allow while they can go beside
        the inspector: :meth:`_place_left_docks` then sets them aside as the window narrows.

        The window's minimum width is its layout's, which counts the queue or cast dock shown
        at the left: a window with the queue out (every Generate brings it) could not be made
        narrower than about 730 pixels, and never became narrow enough for the queue to move
        beside the inspector as it does in a window opened narrow. A dock the user put
        elsewhere, or floated, is not counted here and is never moved; one the user put at the
        left stays there, and the layout's minimum, which counts it, holds (so it does with the
        inspector closed or floating: there is nowhere to set a dock aside)."""
        layout = self.layout()
        if layout is None:
            return
        left = [d for d in (self.queue_dock, self.cast_dock) if not d.isHidden() and not d.isFloating()
                and d not in self._set_aside and self.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea]
        inspector = self.inspector_dock
        central = self.centralWidget()
        can_set_aside = not inspector.isHidden() and not inspector.isFloating() \
            and central is not None and central is not self.welcome
        if not (left and can_set_aside) or any(d in self._placed_by_user for d in left):
            if self._minimum_eased:  # the layout's minimum holds again
                self._minimum_eased = False
                # (0, 0) clears the explicit minimum (setMinimumWidth(0) would keep the width's), so
                # that the layout sets the window's minimum again; the height's was never explicit
                self.setMinimumSize(0, 0)
                layout.invalidate()
                layout.activate()
            return
        separator = self.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, self)
        widest_left = max(d.minimumSizeHint().width() for d in left)
        set_aside = layout.minimumSize().width() - widest_left - separator
        # beside the inspector, in one tab group, the group is as wide as the wider of them
        set_aside += max(0, widest_left - inspector.minimumSizeHint().width())
        chrome = max(self.statusBar().minimumSizeHint().width(), self.menuBar().minimumSizeHint().width())
        self._minimum_eased = True
        self.setMinimumWidth(max(set_aside, chrome, 1))

    def _bring_back(self, dock: QDockWidget) -> None:
        """``dock`` back at the left, in a tab with the other left dock there, as it was shown or hidden."""
        self._set_aside.remove(dock)
        hidden = dock.isHidden()
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        other = next((d for d in (self.queue_dock, self.cast_dock) if d is not dock and not d.isFloating()
                      and self.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea), None)
        if other is not None:
            self.tabifyDockWidget(other, dock)
        dock.setHidden(hidden)
        if not hidden:
            dock.raise_()  # shown beside the inspector, it is shown at the left

    def _put_back_set_aside(self) -> None:
        """Every set-aside dock back at the left (the window is closing: the layout saved is
        the one a window with room shows)."""
        self._moving_docks = True
        try:
            for dock in list(self._set_aside):
                self._bring_back(dock)
        finally:
            self._moving_docks = False

    def _moved_by_hand(self, dock: QDockWidget) -> None:
        """A dock the user moved (dragged, floated) stays where they put it: one set aside is no
        longer brought back, and one put at the left is not set aside when the window narrows."""
        if self._moving_docks:
            return
        self._placed_by_user.add(dock)
        if dock in self._set_aside:
            self._set_aside.remove(dock)

    def _hide_cast_for_room(self) -> None:
        """Collapse the cast dock for lack of room, noting that the window (not the user) did."""
        if not self.cast_dock.isHidden() and not self.cast_dock.isFloating():
            self.cast_dock.hide()
            self._cast_hidden_for_room = True

    def _regrow_cast(self) -> bool:
        """Bring back the cast dock the window collapsed for lack of room, now that it has room
        again (True if it did). One the user closed, or showed and closed again since, stays closed."""
        if not self._cast_hidden_for_room:
            return False
        self._cast_hidden_for_room = False
        if not self.cast_dock.isHidden() or self.cast_dock.isFloating():
            return False
        self.cast_dock.show()
        if self.queue_dock.isHidden():  # no jobs: the cast is what its tab group shows
            self.cast_dock.raise_()
        return True

    def _cast_chosen_by_user(self, _checked: bool = False) -> None:
        """The user showed or closed the cast dock: from now on it is theirs to bring back."""
        self._cast_hidden_for_room = False

    def _raise_queue(self) -> None:
        """The queue in front of its tab group; set aside beside the inspector, it leaves the
        inspector (being edited, likely) in front."""
        if self.queue_dock in self._set_aside:
            self.inspector_dock.raise_()
        else:
            self.queue_dock.raise_()

    def _arrange_docks(self) -> None:
        """Collapse what a narrow window can't hold: the queue shows only while there are jobs,
        the cast dock only in a wide window (View menu: both come back by hand)."""
        workspace = self.workspace
        if workspace is None:
            return
        self._queue_hide_timer.stop()
        self.queue_dock.setVisible(workspace.queue.has_jobs)
        if self.width() < WIDE_WINDOW:
            self._hide_cast_for_room()
        else:
            self._regrow_cast()
        self._place_left_docks()
        self._size_docks()

    def _queue_activity(self, has_jobs: bool) -> None:
        if has_jobs:
            self._queue_hide_timer.stop()
            if self.queue_dock.isHidden():
                self._queue_show_timer.start()
        else:
            self._queue_show_timer.stop()
            self._queue_hide_timer.start()

    def _show_busy_queue(self) -> None:
        if self.workspace is not None and self.workspace.queue.has_jobs and self.queue_dock.isHidden():
            self.queue_dock.show()
            self._raise_queue()
            self._size_docks()

    def _hide_idle_queue(self) -> None:
        if self.workspace is not None and not self.workspace.queue.has_jobs and not self.queue_dock.isHidden():
            self.queue_dock.hide()
            self._size_docks()

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802
        super().resizeEvent(event)
        self._fit_toolbar()
        workspace = self.workspace
        squeezed = workspace is not None and workspace.width() < self.width() * 0.5
        # before the left docks are placed: narrowed in one step (the window's minimum lets it,
        # see _ease_minimum_width), the cast dock collapses as it does narrowed a step at a time
        if squeezed and self.width() < WIDE_WINDOW:
            self._hide_cast_for_room()  # narrower now: the cast dock collapses (View menu brings it back)
        regrown = workspace is not None and self.width() >= WIDE_WINDOW and self._regrow_cast()
        self._place_left_docks()
        if squeezed or regrown:
            self._size_docks()
        elif workspace is not None and event.oldSize().width() != event.size().width():
            self.inspector_width.follow()  # widened or narrowed: the inspector's width follows

    def _fit_toolbar(self) -> None:
        """In a narrow window the toolbar's buttons show their icons alone (their names stay in
        the tooltips and menus) and the engine picker leaves out its status line (told by its
        tooltip), so that the picker, the main choice, stays in sight rather than behind the
        overflow button."""
        style = (Qt.ToolButtonStyle.ToolButtonIconOnly if self.width() < COMPACT_TOOLBAR_WIDTH
                 else Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for button in self._labelled_buttons:
            if button.toolButtonStyle() != style:
                button.setToolButtonStyle(style)
        narrow = style == Qt.ToolButtonStyle.ToolButtonIconOnly
        if self.engine_picker.compact != narrow:
            self.engine_picker.set_compact(narrow)

    def _connect_actions(self) -> None:
        a, c = self.actions_, self.actions_.bind
        c(a.new_project, self.ask_new_project)
        c(a.open_project, self.ask_open_project)
        c(a.close_project, lambda: self.close_project())
        c(a.save_copy, self.ask_save_copy)
        c(a.reopen_for_editing, self.reopen_for_editing)
        c(a.export, self.ask_export)
        c(a.settings, self.ask_settings)
        c(a.quit, self.close)
        c(a.cheat_sheet, self.show_cheat_sheet)
        c(a.about, self._about)
        ws = self._in_workspace
        c(a.undo, ws(lambda w: w.undo()))
        c(a.redo, ws(lambda w: w.redo()))
        c(a.find, ws(lambda w: w.open_search()))
        c(a.find_next, ws(lambda w: w.find_step(1)))
        c(a.find_previous, ws(lambda w: w.find_step(-1)))
        c(a.new_turn, ws(lambda w: w.start_new_turn()))
        c(a.generate, ws(self._generate))
        c(a.reroll, ws(lambda w: w.reroll()))
        c(a.reroll_branch, ws(lambda w: w.reroll_branch()))
        c(a.fill, ws(lambda w: w.fill_branch()))
        c(a.fork, ws(lambda w: w.fork()))
        c(a.compare_branches, ws(lambda w: w.compare_branches()))
        c(a.move_up, ws(lambda w: w.move_alternative(-1)))
        c(a.move_down, ws(lambda w: w.move_alternative(1)))
        c(a.bookmark, ws(lambda w: w.toggle_bookmark()))
        c(a.delete, ws(lambda w: w.delete_current()))
        c(a.go_parent, ws(lambda w: w.navigate("parent")))
        c(a.go_child, ws(lambda w: w.navigate("child")))
        c(a.go_prev_sibling, ws(lambda w: w.navigate("prev")))
        c(a.go_next_sibling, ws(lambda w: w.navigate("next")))
        c(a.go_first, ws(lambda w: w.navigate("first")))
        c(a.go_last, ws(lambda w: w.navigate("last")))
        c(a.next_bookmark, ws(lambda w: w.step_bookmark(1)))
        c(a.previous_bookmark, ws(lambda w: w.step_bookmark(-1)))
        c(a.play, ws(lambda w: w.play()))
        c(a.zoom_in, ws(lambda w: w.view.zoom_in()))
        c(a.zoom_out, ws(lambda w: w.view.zoom_out()))
        c(a.fit, ws(lambda w: w.view.fit_all()))

    @staticmethod
    def _generate(workspace: Workspace) -> None:
        """Ctrl+Enter: generate what the editor holds. Pressed in the editor on a turn, the
        focus then goes back to the tree, as it does once a new turn's draft is generated."""
        editor = workspace.inspector.editor
        focus = QApplication.focusWidget()
        from_editor = focus is not None and (focus is editor or editor.isAncestorOf(focus))
        on_turn = workspace.inspector.draft_parent is None and bool(editor.text().strip())
        too_long = editor.length_error() is not None  # refused: the keyboard stays to shorten the line
        workspace.generate_current()
        if from_editor and on_turn and not too_long and not workspace.closed:
            workspace.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _in_workspace(self, fn: Callable[[Workspace], object]) -> Callable[[], None]:
        def run() -> None:
            if self.workspace is not None:
                fn(self.workspace)

        return run

    def _set_project_actions_enabled(self, on: bool) -> None:
        """The project's actions on or off, their tooltips their names again: why one was off
        on the closed project's selection is no reason now (an opened project's workspace gives
        its own reasons, see :meth:`Workspace.update_actions`)."""
        a = self.actions_
        for group, actions in a.groups:
            if group in ("Turn", "Navigate", "View") or group == "Edit":
                for action in actions:
                    action.setEnabled(on)
                    action.setToolTip("")
        a.export.setEnabled(on)
        a.export.setToolTip("")
        a.close_project.setEnabled(on)

    # -- projects ----------------------------------------------------------------------------

    def open_project(self, path: Path | str) -> bool:
        """Open ``path``; a project that can't be opened leaves the current one open."""
        path = Path(path)  # a recent project's path, or one given on the command line, may be text
        if self._finishing:  # another project opens (or the window closes) once the queue is done
            self.show_message("Still finishing the queued jobs; open it again when they are done.")
            return False
        if self.session is not None and _same_folder(self.session.project.path, path):
            self.show_message(f"{self.session.project.name} is already open.")
            return True
        holder = self._window_holding(path)
        if holder is not None:  # as most editors do: that window comes forward, no read-only second copy
            name = holder.session.project.name if holder.session is not None else path.name
            holder.bring_to_front(f"{name} is already open in this window.")
            self.show_message(f"{name} is already open in another window; that window is brought to the front.")
            return True
        bundle = _bundle_error(path)
        if bundle is not None:
            self.show_error(bundle)
            return False
        try:
            project, read_only = open_for_window(path)  # read-only where it can't be written
        except StudioError as error:
            self.show_error(error)
            return False
        if not self.close_project(then=lambda: self.open_project(path)):
            project.close()  # kept the current one, or opened again once its queue is finished
            return False
        self._install(project, read_only)
        return True

    def _window_holding(self, path: Path) -> MainWindow | None:
        """Another studio window of this process that has the project ``path`` open."""
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget is not self and widget.session is not None \
                    and _same_folder(widget.session.project.path, path):
                return widget
        return None

    def bring_to_front(self, message: str = "") -> None:
        """Show this window in front of the others (restored if minimised), with ``message``."""
        if self.isMinimized():
            self.showNormal()
        self.raise_()
        self.activateWindow()
        if message:
            self.show_message(message)

    def reopen_for_editing(self) -> bool:
        """The project open read-only opened again for writing (the studio that held it closed
        it, the disk was made writable); one that still can't be written says why and stays open."""
        session = self.session
        if session is None or session.read_only is None:
            return False
        path = session.path
        try:
            project = Project.open(path)
        except StudioError as error:
            self.show_error(error)
            return False
        if not self.close_project(then=lambda: self.open_project(path)):
            project.close()
            return False
        self._install(project)
        self.show_message(f"Reopened {project.name} for editing.")
        return True

    def ask_save_copy(self) -> None:
        if self.session is None:
            return
        name = readable_name(self.session.project) or self.session.path.stem  # (a damaged database may not say)
        suggested = self.settings.paths.documents_dir / f"{name} copy.kamishibai"
        path, _ = QFileDialog.getSaveFileName(self, "Save a copy of the project", str(suggested),
                                              "Kamishibai project (*.kamishibai)")
        if path:
            self.save_copy_to(Path(path))

    def save_copy_to(self, dest: Path) -> bool:
        """Copy the open project to the new project folder ``dest`` (on a thread: the window
        stays responsive), then open the copy, for editing, in its place. A copy that can't
        be made says why (a bad place at once, before anything is read) and the project stays
        open. False: refused now."""
        session = self.session
        if session is None:
            return False
        if self._finishing or self.copying is not None:
            self.show_message("Still busy (finishing the queue, or saving a copy); try again when it is done.")
            return False
        try:
            folder = Project.new_folder(dest)  # a free place outside every project: said before anything is read
        except StudioError as error:
            self.show_error(error)
            return False
        damaged = session.read_only is not None and session.read_only.damaged
        copying = ProjectCopy(session.project, folder, self, held=session.project.tree, damaged=damaged)
        copying.done.connect(lambda result: self._copy_done(copying, session, result))
        self.copying = copying
        self.actions_.save_copy.setEnabled(False)
        self.show_message(f"Saving a copy of {readable_name(session.project) or session.path.stem} at {folder}…")
        copying.start()
        return True

    def _copy_done(self, copying: ProjectCopy, source: ProjectSession, result: object) -> None:
        """The copy is made (or failed): opened in place of ``source`` if that is still open."""
        if self.copying is not copying:
            return  # handled already (the window closed while it was being made)
        self.copying = None
        self._update_read_only_actions()
        if not isinstance(result, Project):
            self.show_error(result)
            return
        folder = result.path
        if self.session is not source:  # (not expected: closing waits for the copy)
            result.close()
            self.show_message(f"Saved a copy at {folder}.")
            return
        if self.workspace is not None:  # the copy opens as the original was left: same turn, same folds
            self._remember_selection(self.workspace, folder)
        if not self.close_project(then=lambda: self.open_project(folder)):
            result.close()  # made; it opens once the queue is finished (or stays closed if cancelled)
            if not self._finishing:
                self.show_message(f"Saved a copy at {folder}; open it from File › Open recent when you want it.")
                self.settings.add_recent(folder)
            return
        self._install(result)
        self.show_message(f"Saved a copy at {folder}; the copy is open for editing.")
        if copying.from_memory:
            self.show_error(rescued_notice(folder, source.path, copying.unreadable))

    def _project_damaged(self, session: ProjectSession, error: StudioError) -> None:
        """A change was refused because the open project's database is damaged: the window
        says so once, plainly, and turns read-only (see :mod:`studio.ui.damaged_project`)."""
        workspace = self.workspace
        if self.session is not session or workspace is None:
            return
        if session.read_only is not None and session.read_only.damaged:
            self.show_message(f"⚠ {session.read_only.refusal('save the change').message}")
            return
        reason = damaged_reason(session.path)
        typed = workspace.become_read_only(reason)
        name = readable_name(session.project) or session.path.name
        self.setWindowTitle(f"{name} (read-only) — Kamishibai Studio")
        self._update_read_only_actions()
        self._update_history_actions()
        self.show_error(damaged_notice(session.path, typed))

    def _wait_for_copy(self) -> None:
        """Closing while a copy is made: let it finish (the project it reads must stay open),
        and keep the copy closed."""
        copying, self.copying = self.copying, None
        if copying is None:
            return
        copying.wait()
        made = copying.result
        if isinstance(made, Project):
            made.close()
            log.info("saved a copy at %s while closing", made.path)

    def _check_lock_released(self) -> None:
        """The project another studio held is free: say that it can be reopened for editing."""
        session, workspace = self.session, self.workspace
        reason = session.read_only if session is not None else None
        if session is None or workspace is None or reason is None or not reason.locked:
            self._lock_watch.stop()
            return
        if not is_free_to_write(session.path):
            if session.changed_elsewhere():
                self._reload_read_only()
            return
        self._lock_watch.stop()
        text = (f"Read-only: {session.path.name} is no longer open elsewhere. Use File › Reopen for editing to "
                "change it.")
        if workspace.read_only_bar is not None:
            workspace.read_only_bar.set_text(text)
        self.show_message(text)

    def _reload_read_only(self) -> None:
        """The project open read-only was changed by the program that holds it: it is read again
        (still read-only, the selection kept where its turn still is), so that the window never
        shows, plays or exports a story that no longer exists."""
        session = self.session
        if session is None:
            return
        path, name = session.path, session.project.name
        if not self.close_project("keep"):
            return
        if self.open_project(path):
            self.show_message(f"{name} was changed where it is open for editing: shown again as it is now "
                              "(read-only).")

    def _update_read_only_actions(self) -> None:
        """Save a copy…: on while a project is open (the way out of a read-only one, and a
        copy to try something on for any other); Reopen for editing: for a project opened
        read-only because another studio held it."""
        reason = self.session.read_only if self.session is not None else None
        self.actions_.save_copy.setEnabled(self.session is not None and self.copying is None)
        self.actions_.reopen_for_editing.setEnabled(reason is not None and reason.locked)
        if reason is not None and reason.locked:
            self._lock_watch.start()
        else:
            self._lock_watch.stop()

    def new_project(self, path: Path, name: str | None = None) -> bool:
        try:
            Project.new_folder(path, name)  # a project that can't be made leaves the current one open
        except StudioError as error:
            self.show_error(error)
            return False
        if not self.close_project(then=lambda: self.new_project(path, name)):
            return False  # cancelled, or created once the queued jobs are finished
        try:
            project = self.services.create_project(path, name)
        except StudioError as error:
            self.show_error(error)
            return False
        self._install(project)
        return True

    def _install(self, project: Project, read_only: ReadOnlyReason | None = None) -> None:
        session = ProjectSession(project, self.settings, self.services, self, loop=self.loop, read_only=read_only)
        self.session = session
        workspace = Workspace(session, self.actions_, self.posters, self.clips,
                              lambda title, text: self.confirm(title, text), self)
        self.workspace = workspace
        workspace.ask_stale_hook = lambda count: self.ask_stale(count)
        self.welcome = None
        self._welcome_docks(False)
        # Collapse what this window is too narrow for before the docks are filled: filled and
        # shown, the queue and cast docks raised the window's minimum width, and a window of
        # 960 pixels (half a 1920 screen) grew to 1,033 when a project opened.
        self._arrange_docks()
        self.setCentralWidget(workspace)
        workspace.show()
        self.inspector_dock.setWidget(workspace.inspector)
        workspace.inspector.set_read_only(read_only.off_tip() if read_only is not None else None)
        self.queue_dock.setWidget(workspace.queue)
        self.cast_dock.setWidget(TallScroll(workspace.cast))
        workspace.error.connect(self.show_error)
        session.damage_handler = lambda error: self._project_damaged(session, error)
        workspace.message.connect(self.show_message)
        workspace.queue.cluster.notice.connect(self.show_message)  # connecting to the render farm, or why not
        workspace.queue.cluster.connect_again.connect(self._connect_again)
        workspace.history_changed.connect(self._update_history_actions)
        workspace.inspector.focus_tree_requested.connect(
            lambda: workspace.view.setFocus(Qt.FocusReason.OtherFocusReason) if not workspace.closed else None)
        workspace.queue.activity_changed.connect(self._queue_activity)
        session.tracker.jobs_changed.connect(self._update_jobs_label)
        session.tracker.engine_may_change.connect(self.engine_picker.refresh_status)
        self.engine_picker.set_engines(session.registry, session.engine, self.engine_config())
        self.engine_picker.set_service(session.service, self.settings.device)
        self.settings.add_recent(project.path)
        self.folder_watch = ProjectFolderWatch(project.path, self)
        self.folder_watch.lost.connect(self.show_error)
        # the folds before the selection: selecting a turn unfolds what hides it
        workspace.scene.restore_folds(self.settings.folds(project.path))
        self.folds_kept = FoldsKept(self.settings, workspace.scene, lambda: workspace.project.path)
        self._restore_selection(workspace)
        self.setWindowTitle(f"{project.name_and_folder}{' (read-only)' if read_only else ''} — Kamishibai Studio")
        self._set_project_actions_enabled(True)
        self._update_read_only_actions()
        workspace.update_actions()  # the selection's own rules (the start: no re-roll, fork or delete)
        settle_heap()
        self._update_history_actions()
        self._update_jobs_label()
        if read_only is not None:
            problems = f"; {len(project.problems)} problem(s): {project.problems[0]}" if project.problems else ""
            self.show_message(f"Opened {project.name_and_folder} read-only: {read_only.why}{problems}")
        elif project.problems and all(line.startswith(TIDIED_PREFIX) for line in project.problems):
            # what opening for writing cleared away (media no take uses, half-written files) is
            # news, not a problem: said as the command line says it
            self.show_message(f"Opened {project.name_and_folder}; {'; '.join(project.problems)}")
        elif project.problems:
            self.show_message(f"Opened with {len(project.problems)} problem(s): {project.problems[0]}")
        elif session.service_error:
            self.show_message(session.service_error)
        else:
            self.show_message(f"Opened {project.name_and_folder}")
            workspace.queue.cluster.announce()
        self._arrange_docks()
        QTimer.singleShot(0, workspace.show_selection)
        QTimer.singleShot(120, workspace.show_selection)
        workspace.view.setFocus()

    def _restore_selection(self, workspace: Workspace) -> None:
        """Select the turn that was selected when the project was last closed, if it is still
        there (else the project opens at its start); the view opens around it."""
        node_id = self.settings.last_selected(workspace.project.path)
        if node_id and node_id != workspace.current_id and node_id in workspace.tree.nodes:
            workspace.select(node_id, center=False)  # show_selection centres on it once laid out

    def _remember_selection(self, workspace: Workspace, path: Path | None = None) -> None:
        """Keep the selected turn and the folded ones in the settings, for the next time the
        project opens (in this window or after a restart); ``path``: for its copy there."""
        path = workspace.project.path if path is None else path
        try:
            self.settings.set_last_selected(path, workspace.current_id)
            self.settings.set_folds(path, workspace.scene.folded)
        except OSError as error:  # the project's path can't be resolved: nothing to remember it by
            log.warning("could not remember the selected turn and the folds: %s", error)

    def close_project(self, policy: str | None = None, then: Callable[[], object] | None = None) -> bool:
        """Close the open project; asks what to do with queued jobs unless ``policy`` is given.

        "Finish them" returns False at once and keeps the window responsive until the queue
        is empty; the project is then closed and ``then`` runs (opening another project)."""
        if self.workspace is None or self.session is None:
            return True
        if self.copying is not None:  # (closing the window waits for the copy first)
            self.show_message(f"Still saving a copy of {self.session.project.name}; close it once the copy is made.")
            return False
        if policy is None:
            policy = "keep"
            if self.session.active_jobs():
                choice = self.ask_close_policy(len(self.session.active_jobs()))
                if choice is None:
                    return False
                policy = choice
        if policy == "finish":  # (closing the window waits in closeEvent, which never asks for it here)
            if then is not None:
                self._finish_then(then)
            else:  # File › Close project: the project closes once its queue is done
                self._finish_then(lambda: None, "Finishing the queued jobs before closing the project…")
            return False
        dropped = self._stop_finishing()
        workspace = self.workspace
        name = workspace.project.name
        self._remember_selection(workspace)
        self.workspace = None
        self.session = None
        if self.folder_watch is not None:
            self.folder_watch.deleteLater()
            self.folder_watch = None
        with contextlib.suppress(RuntimeError):  # its jobs' last words ("cancelled") are not the news now
            workspace.message.disconnect(self.show_message)
        # The closed project's panels go with its workspace: a dock given another widget keeps
        # the old one as a hidden child, so every project opened since stayed in the window
        # (a queue panel still listing the closed project's jobs as they were at close).
        panels = [dock.widget() for dock in (self.inspector_dock, self.queue_dock, self.cast_dock)]
        for dock in (self.inspector_dock, self.queue_dock, self.cast_dock):
            dock.setWidget(QWidget())
        workspace.close(policy)
        for panel in panels:
            if panel is not None:
                panel.setParent(None)  # out of the window at once: a deferred delete waits for the event loop
                panel.deleteLater()
        workspace.deleteLater()
        self.show_welcome()
        self._set_project_actions_enabled(False)
        self._update_read_only_actions()
        self._update_history_actions()  # plain "Undo" / "Redo": no project's edits to name
        self.setWindowTitle("Kamishibai Studio")
        self.show_message(f"Closed {name}" + (" (what was to follow its queue is dropped)" if dropped else ""))
        self._update_jobs_label()
        return True

    # -- the welcome page and the sample ------------------------------------------------------

    def welcome_content(self) -> WelcomeContent:
        from studio.engines.weights_search import hf_hub_cache
        from studio.ui.sample_story import shipped_sample, user_sample

        a = self.actions_
        settings = self.settings
        recent = settings.present_projects()
        own_sample = user_sample(settings.paths.projects_dir)
        own_ready = (own_sample / "project.db").is_file() and not project_damage(own_sample)
        sample_ready = shipped_sample() is not None or own_ready  # else the button says it builds one
        return WelcomeContent(
            recent=recent,
            shortcuts=shortcut_rows([a.new_turn, a.generate, a.reroll, a.fork, a.undo]),
            engines=engine_availability(self.registry, self.engine_config()),
            checkpoint_dirs=settings.checkpoint_dirs(),
            hf_cache=hf_hub_cache() if settings.use_hf_cache else None,
            sample_ready=sample_ready,
            start_keys={"new": shortcut_text(a.new_project), "open": shortcut_text(a.open_project)},
        )

    def show_welcome(self) -> WelcomePage:
        page = WelcomePage(self.welcome_content(), self)
        page.new_project_requested.connect(self.ask_new_project)
        page.open_project_requested.connect(self.ask_open_project)
        page.sample_requested.connect(self.open_sample)
        page.recent_requested.connect(self.open_recent)
        page.checkpoints_requested.connect(self.show_checkpoints_folder)
        self.welcome = page
        self.setCentralWidget(page)
        self._welcome_docks(True)
        return page

    def _welcome_docks(self, welcome: bool) -> None:
        """The welcome page takes the whole window: the (empty) docks step aside and come
        back, as they were, when a project opens."""
        docks = (self.inspector_dock, self.queue_dock, self.cast_dock)
        if welcome and self._docks_hidden_for_welcome is None:
            self._docks_hidden_for_welcome = [dock for dock in docks if not dock.isHidden()]
            for dock in self._docks_hidden_for_welcome:
                dock.hide()
        elif not welcome and self._docks_hidden_for_welcome is not None:
            for dock in self._docks_hidden_for_welcome:
                dock.show()
            self._docks_hidden_for_welcome = None
            self._raise_queue()

    def _connect_again(self) -> None:
        session = self.session
        if session is None:
            return
        try:
            again = session.connect_again()
        except StudioError as error:  # the settings' address can't be read
            self.show_error(error)
            return
        if again and self.workspace is not None:
            self.workspace.queue.cluster.refresh()

    def engine_config(self) -> EngineConfig:
        """How engines are set up here: the device setting and the checkpoints folders."""
        return self.services.engine_config(self.settings.device, self.settings.checkpoint_dirs())

    def open_sample(self) -> bool:
        """Open the sample story with its clips generated: the one ``make run`` built in
        the source checkout, else the user's copy, built (and generated) the first time. A
        copy of the user's that is damaged (its database cut short or not one) is moved aside,
        never deleted, and a new one is built: opening it was refused at every click, with
        advice to restore a file the user never made."""
        from studio.ui.sample_story import (
            SampleBuilder,
            build_problem,
            move_aside_if_damaged,
            shipped_sample,
            user_sample,
        )

        shipped = shipped_sample()  # (a damaged one is passed over)
        if shipped is not None:
            return self.open_project(shipped)
        target = user_sample(self.settings.paths.projects_dir)
        if (target / "project.db").is_file() and not project_damage(target):
            return self.open_project(target)
        if self.sample_builder is not None:
            return False
        try:  # here, not in the builder: a builder that fails removes what stands at its path
            moved = move_aside_if_damaged(target)
        except OSError as error:  # the damaged one stays as it is
            self.show_error(StudioError(build_problem(target, error)))
            return False
        engine = self.settings.engine if self.settings.engine in self.registry else self.services.default_engine
        values = self.settings.engine_values(engine)
        if engine in self.registry:  # what Settings shows: a saved value the engine refuses is left out
            values, _ = usable_engine_values(self.registry.info(engine).settings, values)
        builder = SampleBuilder(target, self.services, engine, values, self)
        dialog = QProgressDialog("Generating the sample story's clips…", "Cancel", 0, 0, self)
        dialog.setWindowTitle("The sample story")
        dialog.setMinimumDuration(300)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        self.sample_builder = builder
        self.sample_progress = dialog

        def progress(done: int, total: int) -> None:
            dialog.setMaximum(max(total, 1))
            dialog.setValue(done)
            dialog.setLabelText(f"Generating the sample story's clips… {done} of {total} turns")

        def finished(path: Path) -> None:
            self.sample_builder = None
            dialog.close()
            if self.open_project(path) and moved is not None:
                self.show_message(f"Opened the new sample story. {aside_note(moved)}")

        def failed(message: str) -> None:
            self.sample_builder = None
            dialog.close()
            note = aside_note(moved) if moved is not None else ""
            self.show_error(StudioError(f"{message} {note}".strip()))

        def cancelled() -> None:
            if self.sample_builder is builder:
                self.sample_builder = None
                builder.cancel()
                note = aside_note(moved) if moved is not None else ""
                self.show_message(f"The sample story was not built. {note}".strip())

        builder.progress.connect(progress)
        builder.finished.connect(finished)
        builder.failed.connect(failed)
        dialog.canceled.connect(cancelled)
        builder.start()
        if moved is not None and self.sample_builder is builder:  # said while it is built
            self.show_message(f"Building a new sample story. {aside_note(moved)}")
        return True

    def show_checkpoints_folder(self) -> None:
        """Open the first checkpoints folder that exists (creating the data folder's one if none
        does) in the file manager."""
        dirs = self.settings.checkpoint_dirs()
        folder = next((d for d in dirs if d.is_dir()), dirs[-1])
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self.show_error(StudioError(f"Could not create {folder}: {error}"))
            return
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
        self.show_message(f"Checkpoints folder: {folder}")

    # -- dialogs ----------------------------------------------------------------------------

    def confirm(self, title: str, text: str) -> bool:
        answer = QMessageBox.question(self, title, text, QMessageBox.StandardButton.Yes
                                      | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def ask_stale(self, count: int) -> str | None:
        """Choosing another take makes ``count`` later turns stale: 'reroll' them, just 'use'
        the take, or None (keep the current one)."""
        box = QMessageBox(self)
        box.setWindowTitle("Use another take")
        box.setText(f"{count} later turn{'s were' if count != 1 else ' was'} made from the current take and "
                    f"will be marked stale.")
        box.setInformativeText("Re-roll them from the new take now, or keep their clips for now?")
        reroll = box.addButton(f"Use and re-roll {count}", QMessageBox.ButtonRole.AcceptRole)
        use = box.addButton("Use it", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(use)
        box.exec()
        clicked = box.clickedButton()
        return "reroll" if clicked is reroll else "use" if clicked is use else None

    def ask_close_policy(self, count: int) -> str | None:
        """'finish', 'cancel', 'keep' or None (don't close)."""
        box, answers = close_with_jobs_box(self, count)
        box.exec()
        clicked = box.clickedButton()
        return answers.get(clicked) if clicked is not None else None

    def ask_new_project(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "New project",
                                              str(self.settings.paths.documents_dir / "My story.kamishibai"),
                                              "Kamishibai project (*.kamishibai)")
        if path:
            self.new_project(Path(path))

    def ask_open_project(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Open project (a .kamishibai folder)")
        if path:
            self.open_project(Path(path))

    def _fill_recent(self) -> None:
        """The recent projects that are still there (as the welcome page lists them)."""
        self.recent_menu.clear()
        present = self.settings.present_projects()
        for path in present:
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(str(path))
            action.triggered.connect(lambda _c=False, p=path: self.open_recent(p))
        if not present:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def open_recent(self, path: Path) -> bool:
        """Open a recent project; one moved or deleted since is said so and leaves the list."""
        if not path.is_dir():
            if not path.parent.is_dir():  # its whole folder is gone: a drive not connected, most likely
                if self.welcome is not None:  # the page hides it until the folder is back
                    self.show_welcome()
                self.show_error(StudioError(f"{path.name} isn't there now: its folder {path.parent} can't be found "
                                            "(on a drive that is not connected?).",
                                            hint="Connect the drive it is on and open it again: it stays in the "
                                                 "recent projects, shown again once it is there."))
                return False
            self.settings.remove_recent(path)
            if self.welcome is not None:  # the page listed it: it lists what is left
                self.show_welcome()
            self.show_error(StudioError(f"{path.name} is no longer at {path.parent}: it was moved or deleted.",
                                        hint="Open it where it is now with File > Open project…"))
            return False
        return self.open_project(path)

    def ask_export(self) -> None:
        workspace = self.workspace
        if workspace is None:
            return
        default = workspace.export_folder() / f"{safe_file_name(workspace.project.name)}.mp4"
        project_path = workspace.project.path
        dialog = ExportDialog(default, workspace.project.name, self, branch=workspace.branch_facts(),
                              previous=self._export_choices.get(project_path))
        dialog.follow(workspace.branch_facts, workspace.session.changed, workspace.episode.branch_shown)
        if dialog.exec() != ExportDialog.DialogCode.Accepted:
            return
        choices = dialog.choices()
        self._export_choices[project_path] = choices  # the next export of this project starts from them
        from studio.export import describe_files, existing_outputs
        from studio.export.options import list_files, sheet_names_taken

        try:
            options = choices.options()
            # a PNG sheet's page count says which numbered pages it writes; it is counted (the
            # sheet laid out, on this thread) only where a file of the sheet's names is there
            taken = sheet_names_taken(choices.out)
            pages = self._sheet_pages(workspace, choices.out, choices.fmt, options) if taken else 1
            existing = existing_outputs(choices.out, choices.fmt, choices.captions, pages=pages)
        except StudioError as error:
            self.show_error(error)
            return
        one = len(existing) == 1
        listed = f"\n\n{list_files(existing)}" if len(existing) > 2 else ""  # describe_files names one or two
        if existing and not self.confirm(
                "Replace the export?", f"{describe_files(existing)} already {'exists' if one else 'exist'} in "
                                       f"{existing[0].parent}; the export would replace or remove "
                                       f"{'it' if one else 'them'}.{listed}\n\nReplace {'it' if one else 'them'}?"):
            return
        workspace.queue_export(choices.out, options, choices.fmt)

    @staticmethod
    def _sheet_pages(workspace: Workspace, out: Path, fmt: str, options: ExportOptions) -> int:
        """The pages an export of the shown branch writes, which name a PNG sheet's files:
        laid out as the export lays them out, a turn's long text going on in continuation
        panels. Counted from the turns alone, a sheet of 4 pages was taken for 2, and the
        existing ``NAME-03.png`` and ``NAME-04.png`` were replaced without a word. A branch the
        export can't read (a turn without a clip) is counted from its turns: its export stops
        with that error before it writes anything."""
        from studio.export import ExportError, collect_branch
        from studio.export.options import ExportFormat, infer_format, sheet_page_count
        from studio.export.sheet import sheet_page_total

        turns = workspace.branch_facts().last_turn
        leaf = workspace.branch[-1] if workspace.branch else workspace.current_id
        if infer_format(out, fmt) is not ExportFormat.PNG or not turns:
            return sheet_page_count(turns, options.panels_per_page)
        try:
            return sheet_page_total(collect_branch(workspace.project, leaf), options, ExportFormat.PNG)
        except ExportError:
            return sheet_page_count(turns, options.panels_per_page)

    def ask_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.registry, self)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            before = self._next_project_settings()
            dialog.save()
            self.apply_settings()
            problem = self.settings.write_problem()
            if problem:
                self.show_error(StudioError(problem, hint="They hold until the studio closes. Make the folder "
                                                          "writable (or set XDG_CONFIG_HOME to one that is)."))
                return
            later = self.session is not None and before != self._next_project_settings()
            self.show_message("Settings saved; the device, the devices, the CPU threads and the checkpoints folder "
                              "apply to the next project you open." if later else "Settings saved.")

    def _next_project_settings(self) -> tuple[object, ...]:
        """The settings an open project's engines were set up with (they apply to the next one)."""
        return (self.settings.device, self.settings.devices, self.settings.checkpoints_folder,
                self.settings.cpu_threads)

    def apply_settings(self) -> None:
        """What takes effect at once: the appearance, and the welcome page's facts."""
        from studio.ui.theme import apply_theme

        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, self.settings.appearance)
        if self.workspace is not None and self.workspace.session.service is not None:
            self.workspace.session.service.set_reroll_selects(self.settings.reroll_selects)
        if self.welcome is not None:
            self.show_welcome()

    def show_cheat_sheet(self) -> CheatSheet:
        sheet = CheatSheet(self.actions_.groups, self)
        sheet.setModal(False)
        sheet.show()
        return sheet

    def _about(self) -> None:
        from studio.ui.about_dialog import AboutDialog

        AboutDialog(self.registry.infos(), self).exec()

    # -- feedback ----------------------------------------------------------------------------

    def show_error(self, error: object) -> None:
        studio_error = error if isinstance(error, StudioError) else StudioError(str(error))
        self.last_error = studio_error
        self.status_label.setText(f"⚠ {studio_error.message}")
        box = QMessageBox(QMessageBox.Icon.Warning, "Kamishibai Studio", studio_error.message,
                          QMessageBox.StandardButton.Ok, self)
        if studio_error.hint:
            box.setInformativeText(studio_error.hint)
        box.setModal(False)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        self._open_warnings.append((box, self.status_label.text()))
        box.finished.connect(lambda _result, closed=box: self._warning_closed(closed))
        box.show()
        self._show_lasting_warning()

    def show_message(self, text: str) -> None:
        """Say ``text`` in the status bar. While the window finishes the queue before closing,
        that notice stays after it ("Take ready. · Finishing the queued jobs…"): it said why
        the window was still open, and the next message made it look forgotten."""
        notice = self._finishing_notice if self._finishing else ""
        if notice and notice not in text:
            text = f"{text} · {notice}" if text else notice
        self.status_label.setText(text)
        self._show_lasting_warning()

    def status_text(self) -> str:
        """Everything the status bar's left part says now: the message, then a lasting warning."""
        shown = [label.text() for label in (self.status_label, self.warning_label)
                 if label.text() and not label.isHidden()]
        return " | ".join(shown)

    def _warning_closed(self, box: QMessageBox) -> None:
        self._open_warnings = [(open_box, text) for open_box, text in self._open_warnings if open_box is not box]
        self._show_lasting_warning()

    def _show_lasting_warning(self) -> None:
        """Keep the newest warning whose box is open in the status bar beside a later message
        (on one line: the box holds its whole text), and none once its box is closed."""
        newest = self._open_warnings[-1][1] if self._open_warnings else ""
        lasting = "" if newest == self.status_label.text() else " ".join(newest.split())
        if self.warning_label.text() != lasting:
            self.warning_label.setText(lasting)
            self.warning_label.setToolTip(newest if lasting else "")
        self.warning_label.setVisible(bool(lasting))

    def _update_history_actions(self) -> None:
        """Undo and Redo, named after the steps they take. The window hears of a change a
        moment after the writer made it: Undo is on as soon as an edit (or a redo) is sent,
        and Redo as soon as an undo is, so that a Ctrl+Z pressed right after Fork or Delete
        runs (after the change, in order) instead of meeting a disabled action."""
        history = self.session.project.document.history if self.session is not None else None
        undo = history.undo_label if history else None
        redo = history.redo_label if history else None
        in_flight = self.session.edits_in_flight if self.session is not None else {}
        self.actions_.undo.setText(f"&Undo {undo}" if undo else "&Undo")
        self.actions_.undo.setEnabled(undo is not None or any(in_flight.values()))
        self.actions_.redo.setText(f"&Redo {redo}" if redo else "&Redo")
        self.actions_.redo.setEnabled(redo is not None or bool(in_flight.get("history")))
        self.actions_.undo.setIconText("Undo")
        # the history starts when the project opens (it is not kept on close): said, so that a
        # greyed Undo after reopening doesn't read as lost changes
        nothing = self.session is not None and not self.actions_.undo.isEnabled()
        self.actions_.undo.setToolTip(NOTHING_TO_UNDO_TIP if nothing else f"Undo {undo}" if undo else "Undo")
        self.actions_.redo.setToolTip(f"Redo {redo}" if redo else "Redo")
        read_only = self.session.read_only if self.session is not None else None
        if read_only is not None:  # nothing to undo, and nothing may be done
            for action in (self.actions_.undo, self.actions_.redo):
                action.setEnabled(False)
                action.setToolTip(read_only.off_tip())

    def _update_jobs_label(self) -> None:
        if self.session is None:
            self.jobs_label.setText("")
            return
        count = self.session.tracker.active_count()
        self.jobs_label.setText(f"{count} job{'s' if count != 1 else ''} in the queue" if count else "Idle")

    def _engine_changed(self, name: str) -> None:
        self.settings.engine = name
        reasons = self.engine_picker.unavailable.get(name)
        if reasons:
            self.show_message(f"The {name} engine can't run here: {reasons[0]}")
        else:
            self.show_message(f"New takes will use the {name} engine.")
        if self.workspace is not None:
            self.workspace.load_vocabulary()

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802 - Qt's name
        """Tab from outside the inspector never lands amid the widgets made for the shown turn
        (they sit at the end of Qt's chain): it goes on round the window, the tree included.
        Nor on the docks' tab bar while it is out of sight: with the queue and the cast docks
        both closed, the dock layout keeps their shared tab bar, empty and drawn nowhere, yet
        still a Tab stop; one press in each round of the window went nowhere to be seen."""
        moved = self._focus_next(next)
        for _ in range(MAX_OUT_OF_SIGHT_STOPS):
            focus = QApplication.focusWidget()
            if not moved or not isinstance(focus, QTabBar) or in_sight(focus):
                break
            moved = self._focus_next(next)
        return moved

    def _focus_next(self, next: bool) -> bool:
        """One step of Tab (``next``) or Shift+Tab, as :meth:`focusNextPrevChild` describes."""
        focus = QApplication.focusWidget()
        if self.workspace is not None and focus is not None and self.isAncestorOf(focus):
            target = entry_target(self.workspace.inspector, focus, next)
            if target is not None:
                target.setFocus(Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
                return True
        return super().focusNextPrevChild(next)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        """Back in the window (from a file manager, say): is the project still where it was?
        (The folder watch sees a move within its folder; this, one made further up.) And a
        picture or clip that was missing may have been put back meanwhile: load it again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            if self.folder_watch is not None:
                self.folder_watch.check()
            self.posters.retry_changed()
            self.clips.retry_changed()

    # -- closing -----------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        # closing again while the queue finishes to close: keep, cancel or go on waiting (while it
        # finishes for something else, opening another project, "finish" now means close after)
        closing_already = self._finishing and self._closing_after_queue
        self._wait_for_copy()
        if self.sample_builder is not None:  # building the sample: stop, leave nothing half-made
            self.sample_builder.cancel()
            self.sample_builder = None
        if self.session is not None and self.session.active_jobs():
            choice = self.ask_close_policy(len(self.session.active_jobs()))
            if choice is None or (choice == "finish" and closing_already):
                event.ignore()
                return
            if choice == "finish":
                event.ignore()
                self._finish_then_close()
                return
            self.close_project(choice)
        else:
            self.close_project("keep")
        self._welcome_docks(False)  # the layout saved is the one a project shows, not the welcome page's
        self._put_back_set_aside()  # ... and the docks' own places, not where a narrow window set them aside
        self.settings.save_window(self.saveGeometry(), self.saveState(),
                                  cast_hidden_for_room=self._cast_hidden_for_room and self.cast_dock.isHidden(),
                                  inspector_width=self.inspector_width.chosen)
        event.accept()

    def _finish_then_close(self) -> None:
        """Keep the window open (and responsive) until the queue is empty, then close."""
        self._finish_then(self.close, "Finishing the queued jobs before closing…", closing_window=True)

    def _finish_then(self, action: Callable[[], object],
                     message: str = "Finishing the queued jobs before opening the other project…", *,
                     closing_window: bool = False) -> None:
        """Keep the window open until the queue is empty, close the project, run ``action``
        (it replaces the one pending, if any). ``closing_window``: ``action`` closes the window.

        Told by the job events (the tracker), not by polling."""
        session = self.session
        self._stop_finishing()
        self._finishing = True
        self._closing_after_queue = closing_window
        self._finishing_notice = message
        self._set_workspace_finishing(message)
        self.show_message(message)
        if session is None:
            self._finishing = False
            action()
            return

        connected = [True]

        def stop() -> None:
            if connected.pop() if connected else False:
                with contextlib.suppress(RuntimeError, TypeError):  # the tracker is gone
                    session.tracker.jobs_changed.disconnect(check)

        def check() -> None:
            if self.session is not session or session.tracker.active_count():
                return
            stop()

            def finish() -> None:  # after the event that emptied the queue is handled
                if self._stop_waiting is not stop:
                    return  # dropped meanwhile (the project was closed another way)
                self._stop_finishing()
                self.close_project("keep")
                action()

            QTimer.singleShot(0, finish)

        self._stop_waiting = stop
        session.tracker.jobs_changed.connect(check)
        check()

    def _set_workspace_finishing(self, notice: str) -> None:
        """While the window finishes the queue (``notice``: what it says; "" no longer), the
        generating actions are off, saying why, and a generation asked for anyway is refused."""
        workspace = self.workspace
        if workspace is None or workspace.closed or workspace.finishing == notice:
            return
        workspace.finishing = notice
        workspace.update_actions()

    def _stop_finishing(self) -> bool:
        """Drop a pending "finish the queue, then ..." (True if there was one)."""
        stop, self._stop_waiting = self._stop_waiting, None
        waiting, self._finishing = self._finishing, False
        self._closing_after_queue = False
        self._finishing_notice = ""
        self._set_workspace_finishing("")
        if stop is not None:
            stop()
        return waiting


def app_icon() -> QIcon:
    return icon("kamishibai")


def _bundle_error(path: Path) -> StudioError | None:
    """Why ``path`` can't be opened as it is, if it is a bundle (a .zip file that ``kamishibai
    bundle`` made): the storage would only say it is not a project folder."""
    if not looks_like_bundle(path):  # another file: opening it says why it is not a project
        return None
    folder = path.with_suffix(".kamishibai")
    return StudioError(f"{path.name} is a project bundle (a .zip file): the studio opens project folders, so it has "
                       f"to be unpacked first.",
                       hint=f"Unpack it into a new project folder with the command "
                            f"kamishibai unbundle {shlex.quote(str(path))} {shlex.quote(str(folder))}, "
                            f"then open that folder.")


def aside_note(aside: Path) -> str:
    """What the status bar says of a damaged sample moved to ``aside``, so that the user
    knows where their old copy is (the log says what was wrong with it)."""
    return f"The old one was damaged and could not open: it was moved, as it was, to {aside}"


def _same_folder(a: Path, b: Path) -> bool:
    """Whether two project paths name the same folder (links and relative paths resolved)."""
    try:
        return a.expanduser().resolve() == b.expanduser().resolve()
    except OSError:
        return False
