"""The studio's look: Fusion, a light or a dark palette, and ``resources/theme/studio.qss``
filled with the palette's colours.

The scheme follows the desktop (Qt's ``QStyleHints.colorScheme``, which reads the GTK,
KDE or portal setting) unless the user picked one in Settings; a desktop that says
nothing gets the dark scheme, the studio's own. When the desktop switches while the app
runs, :func:`apply_theme` runs again and every view repaints.

Styling a spin box's or drop-down's frame makes Qt stop drawing their arrows, so the
stylesheet draws them (and the check box's tick) from small SVG files written in the
scheme's colours to the cache folder.

The stylesheet's text sizes are written for a 9 pt application font; a larger one (the
desktop's or the user's choice of larger text) scales them all, when the theme is applied and
whenever the application's font changes: the stylesheet's sizes would otherwise win over it.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import asdict, dataclass
from enum import Enum
from pathlib import Path
from string import Template

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QGraphicsView

from studio.ui import palette as painted
from studio.ui.icons import set_icon_colors
from studio.ui.resources import resource


class Scheme(Enum):
    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True)
class Colors:
    window: str
    panel: str  # toolbars, menus, dock titles, status bar
    base: str  # text fields
    raised: str  # buttons
    raised_hover: str
    raised_border: str
    border: str
    separator: str
    text: str
    dim: str
    disabled: str
    accent: str
    accent_hover: str
    accent_disabled: str
    on_accent: str  # text on the accent colour
    selection: str  # a selected row, a checked tool button
    tile: str  # cards, menus, tooltips
    tile_selected: str
    canvas: str  # the story tree's background
    hover: str
    scroll: str
    scroll_hover: str
    preview: str  # the instruction preview's text
    stale: str
    ok: str
    icon: str  # line icons


DARK = Colors(
    window="#1b1e2b", panel="#20232f", base="#12141c", raised="#2b3045", raised_hover="#343a52",
    raised_border="#2b3045", border="#363c55", separator="#12141c", text="#e8e9f3", dim="#9aa0bd",
    disabled="#737b9f", accent="#ff7aa2", accent_hover="#ff93b4", accent_disabled="#5b4050", on_accent="#14151c",
    selection="#3a3350", tile="#242838", tile_selected="#2b2638", canvas="#161821", hover="#2b3045",
    scroll="#363c55", scroll_hover="#4a5275", preview="#ffd166", stale="#e0a040", ok="#5ad19a", icon="#dfe1ee",
)
LIGHT = Colors(
    window="#f4f5f9", panel="#e8eaf1", base="#ffffff", raised="#ffffff", raised_hover="#f0f1f7",
    raised_border="#d5d8e4", border="#c4c8d8", separator="#d5d8e4", text="#1e2130", dim="#5a617e",
    disabled="#7d84a5", accent="#c8336a", accent_hover="#b0285b", accent_disabled="#efc0cf", on_accent="#ffffff",
    selection="#f6d9e3", tile="#ffffff", tile_selected="#fdeef3", canvas="#eceef5", hover="#e3e6f0",
    scroll="#c3c8d8", scroll_hover="#a3a9c4", preview="#8a5a00", stale="#945608", ok="#18774b", icon="#3a3f58",
)
# Text pairs read at 4.5:1 or more (WCAG AA for body text): text and dim on every surface,
# white on the light scheme's pink buttons and menu rows, the stale/ok labels. Disabled text
# reads at 3:1 or more on the surfaces a disabled control sits on, and stays dimmer than dim.
# tests/ui/test_theme_qa5_text_contrast.py holds them to it.
COLORS = {Scheme.DARK: DARK, Scheme.LIGHT: LIGHT}

_ARROWS = {
    "up": "M1.8 6.8 L5 3.4 L8.2 6.8",
    "down": "M1.8 3.4 L5 6.8 L8.2 3.4",
    "more": "M1.6 2.2 L4.4 5 L1.6 7.8 M5.6 2.2 L8.4 5 L5.6 7.8",  # a toolbar's overflow button
}
_CHECK = "M2 5.3 L4.1 7.4 L8 2.8"


def system_scheme() -> Scheme | None:
    """The desktop's light/dark setting as Qt sees it; None when it says nothing."""
    hints = QGuiApplication.styleHints()
    scheme = hints.colorScheme() if hints is not None else Qt.ColorScheme.Unknown
    return {Qt.ColorScheme.Dark: Scheme.DARK, Qt.ColorScheme.Light: Scheme.LIGHT}.get(scheme)


def resolve_scheme(appearance: str) -> Scheme:
    """``light``/``dark`` as chosen; ``system``: the desktop's, dark when it has none."""
    if appearance in ("light", "dark"):
        return Scheme(appearance)
    return system_scheme() or Scheme.DARK


def build_palette(colors: Colors) -> QPalette:
    result = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    roles = {
        role.Window: colors.window, role.WindowText: colors.text, role.Base: colors.base,
        role.AlternateBase: colors.window, role.Text: colors.text, role.Button: colors.raised,
        role.ButtonText: colors.text, role.Highlight: colors.accent, role.HighlightedText: colors.on_accent,
        role.ToolTipBase: colors.tile, role.ToolTipText: colors.text, role.PlaceholderText: colors.disabled,
        role.Link: "#5aa9ff" if colors is DARK else "#1d6fd6", role.BrightText: colors.accent,
        role.Light: colors.raised_hover, role.Midlight: colors.raised, role.Mid: colors.border,
        role.Dark: colors.separator, role.Shadow: colors.separator,
    }
    for key, value in roles.items():
        result.setColor(key, QColor(value))
    for key in (role.Text, role.WindowText, role.ButtonText):
        result.setColor(group.Disabled, key, QColor(colors.disabled))
    return result


def _stroke_svg(path: str, color: str, width: float) -> str:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
            f'<path d="{path}" fill="none" stroke="{color}" stroke-width="{width}" stroke-linecap="round" '
            'stroke-linejoin="round"/></svg>')


def theme_images(colors: Colors, folder: Path) -> dict[str, Path]:
    """The stylesheet's images as SVG files in ``folder`` (written once per colour):
    ``arrow_up``, ``arrow_down``, ``arrow_more`` and their ``_disabled`` versions, and ``check``."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {f"arrow_{direction}{suffix}": (f"arrow-{direction}", _stroke_svg(path, color, 1.6), color)
              for direction, path in _ARROWS.items()
              for suffix, color in (("", colors.dim), ("_disabled", colors.disabled))}
    wanted["check"] = ("check", _stroke_svg(_CHECK, colors.on_accent, 1.8), colors.on_accent)
    images: dict[str, Path] = {}
    for key, (stem, svg, color) in wanted.items():
        target = folder / f"{stem}-{color.lstrip('#')}.svg"
        if not target.is_file():
            target.write_text(svg, encoding="utf-8")
        images[key] = target
    return images


def _images_folder() -> Path:
    from studio.ui.app_paths import AppPaths

    try:
        return AppPaths.standard().cache("theme")
    except OSError:  # a read-only home: a private temporary folder still works
        return Path(tempfile.mkdtemp(prefix="kamishibai-theme-"))


DESIGN_POINT_SIZE = 9.0
"""The application font the stylesheet's text sizes are written for."""
_FONT_SIZE = re.compile(r"font-size:\s*([0-9]+(?:\.[0-9]+)?)pt")


def text_scale(app: QGuiApplication) -> float:
    """How much larger than :data:`DESIGN_POINT_SIZE` the application's font is (never less
    than 1: a smaller desktop font keeps the studio's own sizes)."""
    size = app.font().pointSizeF()
    return max(1.0, size / DESIGN_POINT_SIZE) if size > 0 else 1.0


def scale_font_sizes(sheet: str, scale: float) -> str:
    """``sheet`` with each ``font-size: N pt`` multiplied by ``scale``."""
    if scale == 1.0:
        return sheet
    return _FONT_SIZE.sub(lambda found: f"font-size: {float(found.group(1)) * scale:.2f}pt", sheet)


def stylesheet(colors: Colors, images: dict[str, Path], scale: float = 1.0) -> str:
    template = Template(resource("theme", "studio.qss").read_text(encoding="utf-8"))
    values = {**asdict(colors), **{key: path.as_posix() for key, path in images.items()}}
    return scale_font_sizes(template.substitute(values), scale)


class _SchemeFollower(QObject):
    """Re-applies the theme when the desktop switches between light and dark, and when the
    application's font changes (its text sizes follow the font: see :func:`text_scale`)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.app = app
        self.appearance = "system"
        self.images_folder: Path | None = None
        self.scale = 1.0
        hints = app.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(self._changed)
        app.fontChanged.connect(self._font_changed)

    def _changed(self, _scheme: Qt.ColorScheme) -> None:
        if self.appearance == "system":
            apply_theme(self.app, "system", self.images_folder)

    def _font_changed(self, _font: QFont) -> None:
        """A new application font: the stylesheet's sizes follow it (unless the theme was taken
        off the application since, or the scale is the same)."""
        if text_scale(self.app) != self.scale and self.app.styleSheet():
            apply_theme(self.app, self.appearance, self.images_folder)


_followers: dict[int, _SchemeFollower] = {}


def apply_theme(app: QApplication, appearance: str = "system", images_folder: Path | None = None) -> Scheme:
    """Style ``app`` for ``appearance`` (``system``, ``light`` or ``dark``); returns the scheme used."""
    scheme = resolve_scheme(appearance)
    colors = COLORS[scheme]
    app.setStyle("Fusion")
    app.setPalette(build_palette(colors))
    painted.use_scheme(scheme.value)
    set_icon_colors(colors.icon, colors.disabled)
    scale = text_scale(app)
    app.setStyleSheet(stylesheet(colors, theme_images(colors, images_folder or _images_folder()), scale))
    follower = _followers.get(id(app))
    if follower is None:
        follower = _followers[id(app)] = _SchemeFollower(app)
    follower.appearance = appearance
    follower.images_folder = images_folder
    follower.scale = scale
    refresh_views(app)
    return scheme


def refresh_views(app: QApplication) -> None:
    """Repaint everything: painted views read :mod:`studio.ui.palette` at paint time, but
    graphics scenes keep a background brush and item caches."""
    for widget in app.allWidgets():
        if isinstance(widget, QGraphicsView):
            scene = widget.scene()
            if scene is not None:
                scene.setBackgroundBrush(painted.BACKGROUND)
                for item in scene.items():
                    item.update()
            widget.resetCachedContent()
        widget.update()
