"""Visual QA round 5: the theme's text colours read on the surfaces they are drawn on.

Seen on screenshots of the sample project (1280x720, light and dark): the light scheme's
white "Generate" text on its pink button and menu rows came to 3.9:1, its stale and
"engine ready" labels 3.7:1 and 2.9:1 on the panels, and disabled text (toolbar Undo, a
disabled button) 2.2:1 in the dark scheme, 2.0:1 in the light one. Body text needs 4.5:1
(WCAG AA); disabled text is held to 3:1 and stays dimmer than the dim text beside it."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QPushButton

from studio.ui import theme
from tests.ui.contrast import contrast

SURFACES = ("window", "panel", "base", "raised", "tile", "tile_selected", "selection", "hover")
LABEL_SURFACES = ("window", "panel", "base", "tile", "tile_selected")
DISABLED_SURFACES = ("window", "panel", "base", "raised")


def _low(colors: theme.Colors, text: str, surfaces: tuple[str, ...], at_least: float) -> list[str]:
    values = vars(colors)
    return [f"{text} on {surface}: {contrast(values[text], values[surface]):.2f}" for surface in surfaces
            if contrast(values[text], values[surface]) < at_least]


@pytest.mark.parametrize("scheme", list(theme.Scheme))
def test_body_text_reads_at_4_5_to_1_on_every_surface(scheme: theme.Scheme) -> None:
    colors = theme.COLORS[scheme]
    low = _low(colors, "text", SURFACES, 4.5) + _low(colors, "dim", SURFACES, 4.5)
    low += _low(colors, "preview", ("base",), 4.5)
    assert not low, low


@pytest.mark.parametrize("scheme", list(theme.Scheme))
def test_text_on_the_accent_reads_at_4_5_to_1(scheme: theme.Scheme) -> None:
    """The primary button (and its hover), a highlighted menu row, a selected drop-down row."""
    colors = theme.COLORS[scheme]
    low = [f"on_accent on {name}: {contrast(colors.on_accent, getattr(colors, name)):.2f}"
           for name in ("accent", "accent_hover") if contrast(colors.on_accent, getattr(colors, name)) < 4.5]
    assert not low, low


@pytest.mark.parametrize("scheme", list(theme.Scheme))
def test_stale_warning_and_ok_labels_read_at_4_5_to_1(scheme: theme.Scheme) -> None:
    colors = theme.COLORS[scheme]
    low = _low(colors, "stale", LABEL_SURFACES, 4.5) + _low(colors, "ok", LABEL_SURFACES, 4.5)
    assert not low, low


@pytest.mark.parametrize("scheme", list(theme.Scheme))
def test_disabled_text_is_readable_and_dimmer_than_dim_text(scheme: theme.Scheme) -> None:
    colors = theme.COLORS[scheme]
    assert not _low(colors, "disabled", DISABLED_SURFACES, 3.0), _low(colors, "disabled", DISABLED_SURFACES, 3.0)
    for surface in DISABLED_SURFACES:
        background = getattr(colors, surface)
        assert contrast(colors.disabled, background) < contrast(colors.dim, background) - 1.0, surface


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_applied_theme_uses_these_colours(qapp: QApplication, scheme: str) -> None:
    """What the checks above measure is what the widgets get: the palette's disabled text and
    the primary button's text colour from the stylesheet."""
    try:
        used = theme.apply_theme(qapp, scheme)
        colors = theme.COLORS[used]
        palette = qapp.palette()
        assert palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText) == QColor(colors.disabled)
        button = QPushButton("Generate")
        button.setObjectName("primaryButton")
        button.ensurePolished()
        assert button.palette().color(QPalette.ColorRole.ButtonText) == QColor(colors.on_accent)
        assert contrast(button.palette().color(QPalette.ColorRole.ButtonText), colors.accent) >= 4.5
    finally:
        theme.apply_theme(qapp, "dark")  # the other tests expect the default look
