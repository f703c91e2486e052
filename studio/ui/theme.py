"""The studio's look: Fusion style, a dark palette and ``resources/theme/studio.qss``."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from studio.ui.resources import resource


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#1b1e2b",
        QPalette.ColorRole.WindowText: "#e8e9f3",
        QPalette.ColorRole.Base: "#12141c",
        QPalette.ColorRole.AlternateBase: "#1b1e2b",
        QPalette.ColorRole.Text: "#e8e9f3",
        QPalette.ColorRole.Button: "#2b3045",
        QPalette.ColorRole.ButtonText: "#e8e9f3",
        QPalette.ColorRole.Highlight: "#ff7aa2",
        QPalette.ColorRole.HighlightedText: "#14151c",
        QPalette.ColorRole.ToolTipBase: "#242838",
        QPalette.ColorRole.ToolTipText: "#e8e9f3",
        QPalette.ColorRole.PlaceholderText: "#5b6285",
        QPalette.ColorRole.Link: "#5aa9ff",
    }
    for role, color in roles.items():
        palette.setColor(role, QColor(color))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#5b6285"))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#5b6285"))
    return palette


def apply_theme(app: QApplication) -> None:
    app.setStyle("Fusion")
    app.setPalette(dark_palette())
    qss = resource("theme", "studio.qss")
    if qss.is_file():
        app.setStyleSheet(qss.read_text(encoding="utf-8"))
