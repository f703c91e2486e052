"""Render the app icon, ``packaging/io.kamishibai.Studio.svg``, as PNGs from 16 to 512 px
in an XDG icon-theme tree (``OUT/hicolor/NxN/apps/io.kamishibai.Studio.png``, plus the
SVG under ``scalable/``), for desktops and launchers that want bitmaps.

    python packaging/make_icons.py OUT

Each size is rendered from the vector drawing, not scaled from another bitmap. Needs
PySide6 (QtSvg); runs offscreen.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

SVG = Path(__file__).resolve().with_name("io.kamishibai.Studio.svg")
ICON_NAME = "io.kamishibai.Studio"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def _ensure_gui() -> object:
    """An application object for QtSvg (a QApplication, so that a process that later wants
    widgets, such as a test run, can still make them)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def render(svg: Path, size: int):  # type: ignore[no-untyped-def]
    """The SVG drawn into a transparent ``size`` x ``size`` QImage."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not a valid SVG file")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    renderer.render(painter)
    painter.end()
    return image


def make_icons(out: Path, svg: Path = SVG, sizes: tuple[int, ...] = SIZES) -> list[Path]:
    """Write the icon tree under ``out``; returns the PNG paths, smallest first."""
    _ensure_gui()
    written = []
    for size in sizes:
        target = out / "hicolor" / f"{size}x{size}" / "apps" / f"{ICON_NAME}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not render(svg, size).save(str(target), "PNG"):
            raise OSError(f"could not write {target}")
        written.append(target)
    scalable = out / "hicolor" / "scalable" / "apps" / f"{ICON_NAME}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python packaging/make_icons.py OUT", file=sys.stderr)
        return 2
    written = make_icons(Path(argv[0]))
    print(f"wrote {len(written)} icons ({SIZES[0]}-{SIZES[-1]} px) under {Path(argv[0]) / 'hicolor'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
