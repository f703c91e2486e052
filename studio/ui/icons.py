"""Icons drawn as SVG text in ``resources/icons`` (no third-party artwork)."""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QIcon

from studio.ui.resources import resource


@cache
def icon(name: str) -> QIcon:
    path = resource("icons", f"{name}.svg")
    return QIcon(str(path)) if path.is_file() else QIcon()
