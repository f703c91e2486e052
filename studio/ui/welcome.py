"""The welcome page, shown when no project is open (and on the first run): start a project,
open the sample or a recent one, the five shortcuts that matter most, which engines can
run on this computer and how to add model weights.

The page only displays what it is given (:class:`WelcomeContent`) and emits what the
user asked for; the window decides what that means.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from studio.core.text import one_line
from studio.ui.engine_status import EngineAvailability, row_summary
from studio.ui.icons import icon

MAX_RECENT_SHOWN = 6
LOGO_SIZE = 72
CARD_MIN_WIDTH = 340
PAGE_SIDE_MARGIN = 32


@dataclass(frozen=True)
class WelcomeContent:
    recent: Sequence[Path] = ()
    shortcuts: Sequence[tuple[str, str]] = ()  # (keys, what they do)
    engines: Sequence[EngineAvailability] = ()
    checkpoint_dirs: Sequence[Path] = ()
    hf_cache: Path | None = None  # None: the Hugging Face cache is not searched
    sample_ready: bool = False  # the sample exists (else opening it builds it first)
    start_keys: dict[str, str] = field(default_factory=dict)  # "new"/"open" -> keys


def shortcut_text(action: QAction) -> str:
    """The action's first shortcut as printed on keys ("Enter", not "Return")."""
    shortcuts = action.shortcuts()
    if not shortcuts:
        return ""
    return shortcuts[0].toString(QKeySequence.SequenceFormat.NativeText).replace("Return", "Enter")


def shortcut_rows(actions: Sequence[QAction]) -> list[tuple[str, str]]:
    """(keys, what) for each action, its menu text without accelerators and ellipses."""
    rows = []
    for action in actions:
        keys = shortcut_text(action)
        if keys:
            rows.append((keys, action.text().replace("&", "").rstrip("…").strip()))
    return rows


def home_relative(path: Path) -> str:
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def _label(text: str, parent: QWidget, name: str = "", *, rich: bool = False) -> QLabel:
    label = QLabel(text, parent)
    if name:
        label.setObjectName(name)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class RecentButton(QPushButton):
    """A recent project: its name, and its folder (elided in the middle) in a dimmer colour.

    Both are shown on one line (a line break or a control character in a folder's name is
    a space here) and share the width: a long name is elided too, keeping at least
    :data:`NAME_SHARE` of the row for the folder when both don't fit; the tooltip holds the
    whole path."""

    NAME_SHARE = 0.6

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.setObjectName("recentButton")
        self.setToolTip(str(path))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.name = one_line(path.name.removesuffix(".kamishibai")) or path.name
        self.folder = one_line(home_relative(path.parent))
        self.setAccessibleName(f"Open {self.name}")
        self.name_label = _label(self.name, self, "recentName")
        self.name_label.setWordWrap(False)
        self.folder_label = _label(self.folder, self, "dimLabel")
        self.folder_label.setWordWrap(False)
        for label in (self.name_label, self.folder_label):
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # The name's width is set on each resize (below). With an Ignored policy the row's
        # layout did not count that width: the folder was drawn over the name.
        self.name_label.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self.name_label.setFixedWidth(0)  # until the first resize: a long name must not widen the page
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(8, 4, 8, 4)
        self.row.setSpacing(12)
        self.row.addWidget(self.name_label)
        self.row.addWidget(self.folder_label, 1)
        self.setMinimumHeight(30)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        margins = self.row.contentsMargins()
        room = max(self.width() - margins.left() - margins.right() - self.row.spacing(), 80)
        name_metrics, folder_metrics = self.name_label.fontMetrics(), self.folder_label.fontMetrics()
        name_full = name_metrics.horizontalAdvance(self.name) + 2
        folder_full = folder_metrics.horizontalAdvance(self.folder) + 2
        name_width = min(name_full, max(room - folder_full, int(room * self.NAME_SHARE)))
        self.name_label.setFixedWidth(name_width)
        self.name_label.setText(name_metrics.elidedText(self.name, Qt.TextElideMode.ElideMiddle, name_width))
        self.folder_label.setText(folder_metrics.elidedText(self.folder, Qt.TextElideMode.ElideMiddle,
                                                            room - name_width))


def _card(parent: QWidget, title: str) -> tuple[QFrame, QVBoxLayout]:
    card = QFrame(parent)
    card.setObjectName("welcomeCard")
    layout = QVBoxLayout(card)
    layout.setContentsMargins(18, 14, 18, 16)
    layout.setSpacing(8)
    layout.addWidget(_label(title.upper(), card, "welcomeHeading"))
    return card, layout


class WelcomePage(QWidget):
    new_project_requested = Signal()
    open_project_requested = Signal()
    sample_requested = Signal()
    recent_requested = Signal(Path)
    checkpoints_requested = Signal()  # show the checkpoints folder in the file manager

    def __init__(self, content: WelcomeContent, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        self.content = content
        self.recent_buttons: list[RecentButton] = []
        self.engine_rows: list[QWidget] = []
        self.engine_details: list[QLabel] = []
        """Each engine's reasons, hidden behind its Details button."""
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(scroll)
        body.setObjectName("welcome")
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        column = QVBoxLayout()
        column.setSpacing(18)
        column.addLayout(self._header(body))
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(18)
        start, shortcuts = self._start_card(body), self._shortcuts_card(body)
        for card in (start, shortcuts):  # two equal columns, whatever their text
            card.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            card.setMinimumWidth(CARD_MIN_WIDTH)
        self._grid, self._start, self._shortcuts = grid, start, shortcuts
        self._engines = self._engines_card(body)
        self.stacked = False
        """Whether the Start and Keyboard cards are one above the other (a narrow page)."""
        self._arrange(stacked=False)
        column.addLayout(grid)
        holder = QWidget(body)
        holder.setObjectName("welcome")
        holder.setMaximumWidth(980)
        holder.setLayout(column)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(holder, 10)
        row.addStretch(1)
        page = QVBoxLayout(body)  # centred when there is room, scrolled when there is not
        page.setContentsMargins(PAGE_SIDE_MARGIN, 28, PAGE_SIDE_MARGIN, 28)
        page.addStretch(1)
        page.addLayout(row)
        page.addStretch(2)

    def _arrange(self, *, stacked: bool) -> None:
        """The Start and Keyboard cards side by side, or one above the other; the Engines card
        under them, as wide as both."""
        self.stacked = stacked
        grid = self._grid
        for card in (self._start, self._shortcuts, self._engines):
            grid.removeWidget(card)
        grid.addWidget(self._start, 0, 0)
        if stacked:
            grid.addWidget(self._shortcuts, 1, 0)
            grid.addWidget(self._engines, 2, 0)
        else:
            grid.addWidget(self._shortcuts, 0, 1)
            grid.addWidget(self._engines, 1, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 0 if stacked else 1)

    def side_by_side_width(self) -> int:
        """The narrowest page that shows the two cards side by side without a sideways scroll:
        both cards, the space between them, the page's margins and room for the scroll bar
        (counted whether it shows or not, so a page just as wide does not switch back and forth
        as the bar comes and goes)."""
        scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return 2 * CARD_MIN_WIDTH + self._grid.horizontalSpacing() + 2 * PAGE_SIDE_MARGIN + scroll_bar

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        # below the two cards' width they stack: side by side they made the page scroll sideways
        stacked = event.size().width() < self.side_by_side_width()
        if stacked != self.stacked:
            self._arrange(stacked=stacked)
        super().resizeEvent(event)

    # -- sections ---------------------------------------------------------------------------

    def _header(self, parent: QWidget) -> QHBoxLayout:
        logo = QLabel(parent)
        logo.setObjectName("welcomeLogo")
        # device-pixel-ratio aware: sharp on high-DPI screens
        pixmap = icon("kamishibai").pixmap(QSize(LOGO_SIZE, LOGO_SIZE), self.devicePixelRatioF())
        logo.setPixmap(pixmap)
        logo.setFixedSize(LOGO_SIZE, LOGO_SIZE)
        title = _label("Kamishibai Studio", parent, "welcomeTitle")
        subtitle = _label("Write a turn, generate a clip, branch the story.", parent, "dimLabel")
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addStretch(1)
        text.addWidget(title)
        text.addWidget(subtitle)
        text.addStretch(1)
        row = QHBoxLayout()
        row.setSpacing(16)
        row.addWidget(logo)
        row.addLayout(text, 1)
        return row

    def _start_button(self, parent: QWidget, text: str, icon_name: str, keys: str = "", *,
                      primary: bool = False) -> QPushButton:
        button = QPushButton(icon(icon_name), f"{text}    {keys}" if keys else text, parent)
        button.setIconSize(QSize(18, 18))
        if primary:
            button.setObjectName("primaryButton")
        button.setMinimumHeight(34)
        return button

    def _start_card(self, parent: QWidget) -> QFrame:
        card, layout = _card(parent, "Start")
        keys = self.content.start_keys
        self.new_button = self._start_button(card, "New project…", "new-project", keys.get("new", ""), primary=True)
        self.open_button = self._start_button(card, "Open project…", "open", keys.get("open", ""))
        sample_text = "Open the sample story" if self.content.sample_ready else "Open the sample story (generates it)"
        self.sample_button = self._start_button(card, sample_text, "play")
        self.sample_button.setToolTip("Qiqi's first delivery: a two-branch story with every clip generated")
        self.new_button.clicked.connect(self.new_project_requested)
        self.open_button.clicked.connect(self.open_project_requested)
        self.sample_button.clicked.connect(self.sample_requested)
        for button in (self.new_button, self.open_button, self.sample_button):
            layout.addWidget(button)
        layout.addSpacing(8)
        layout.addWidget(_label("Recent projects".upper(), card, "welcomeHeading"))
        recent = list(self.content.recent)[:MAX_RECENT_SHOWN]
        if not recent:
            layout.addWidget(_label("Projects you open appear here.", card, "dimLabel"))
        for path in recent:
            button = RecentButton(path, card)
            button.clicked.connect(lambda _checked=False, p=path: self.recent_requested.emit(p))
            layout.addWidget(button)
            self.recent_buttons.append(button)
        layout.addStretch(1)
        return card

    def _shortcuts_card(self, parent: QWidget) -> QFrame:
        card, layout = _card(parent, "Keyboard essentials")
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(9)
        self.shortcut_labels: list[QLabel] = []
        for row, (keys, what) in enumerate(self.content.shortcuts):
            key = _label(keys, card, "welcomeKey")
            key.setWordWrap(False)
            key.setAlignment(Qt.AlignmentFlag.AlignCenter)
            grid.addWidget(key, row, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(_label(what, card), row, 1, Qt.AlignmentFlag.AlignVCenter)
            self.shortcut_labels.append(key)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)
        layout.addStretch(1)
        layout.addWidget(_label("F1 lists every shortcut. Single keys work when the story tree has the focus.",
                                card, "dimLabel"))
        return card

    def _engines_card(self, parent: QWidget) -> QFrame:
        card, layout = _card(parent, "Engines on this computer")
        if not self.content.engines:
            layout.addWidget(_label("No engines are installed.", card, "dimLabel"))
        for engine in self.content.engines:
            row = QWidget(card)
            row.setObjectName("welcomeRow")
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(10)
            state = _label("✓ can run" if engine.available else "✗ cannot run", row,
                           "engineOk" if engine.available else "engineMissing")
            state.setWordWrap(False)
            state.setMinimumWidth(90)
            line.addWidget(state, 0, Qt.AlignmentFlag.AlignTop)
            text = QVBoxLayout()
            text.setContentsMargins(0, 0, 0, 0)
            text.setSpacing(2)
            heading = QHBoxLayout()
            heading.setSpacing(8)
            heading.addWidget(_label(f"<b>{html.escape(engine.name)}</b> · {html.escape(row_summary(engine))}",
                                     row, rich=True), 1)
            if engine.reasons:
                details = _label("<br>".join(html.escape(reason) for reason in engine.reasons), row,
                                 "dimLabel", rich=True)
                details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                details.hide()
                heading.addWidget(self._details_button(engine.name, details, row), 0, Qt.AlignmentFlag.AlignTop)
                self.engine_details.append(details)
            text.addLayout(heading)
            if engine.reasons:
                text.addWidget(details)
            line.addLayout(text, 1)
            row.setAccessibleName(f"{engine.name}: {'can run' if engine.available else 'cannot run'}")
            layout.addWidget(row)
            self.engine_rows.append(row)
        layout.addSpacing(6)
        layout.addWidget(_label("Adding model weights".upper(), card, "welcomeHeading"))
        layout.addWidget(_label(self.weights_help(), card, rich=True))
        button = QPushButton(icon("open"), "Show the checkpoints folder", card)
        button.clicked.connect(self.checkpoints_requested)
        self.checkpoints_button = button
        buttons = QHBoxLayout()
        buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        return card

    @staticmethod
    def _details_button(name: str, details: QLabel, parent: QWidget) -> QToolButton:
        """A "Details" disclosure that shows or hides an engine's reasons (one line a file)."""
        button = QToolButton(parent)
        button.setText("Details")
        button.setCheckable(True)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setArrowType(Qt.ArrowType.RightArrow)
        button.setAccessibleName(f"Details of {name}")
        button.setToolTip(f"Show what {name} lacks, file by file, and how to fix it")

        def toggle(shown: bool) -> None:
            details.setVisible(shown)
            button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

        button.toggled.connect(toggle)
        return button

    def weights_help(self) -> str:
        """Where weights go, as rich text: one folder per line, then the Hugging Face cache."""
        dirs = [home_relative(d) for d in self.content.checkpoint_dirs] or ["checkpoints"]
        lines = ["Put an engine's weights (<code>.safetensors</code> files) in a folder named after the engine "
                 "(<code>mini/</code>, say) in one of these checkpoints folders, searched in this order:"]
        lines += [f"&nbsp;&nbsp;<code>{html.escape(d)}/</code>" for d in dirs]
        lines.append("The sketch engine needs no weights. The released AnimeGamer and CustomX files (PyTorch "
                     "<code>.bin</code> and <code>.pt</code> files) must be converted first: <code>kamishibai "
                     "checkpoints convert</code> (or <code>convert-customx</code>) writes their safetensors there.")
        if self.content.hf_cache is not None:
            lines.append("Hugging Face models you already downloaded are used from your Hugging Face cache, "
                         f"offline: <code>{html.escape(home_relative(self.content.hf_cache))}</code>")
        lines.append("The checkpoints folder is a setting (File › Settings).")
        return "<br>".join(lines)
