"""The window's place, size and dock layout across starts (QA: the dock layout was saved but
never restored; the first window was larger than a small screen; a damaged saved geometry
opened the window as a sliver)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect, QSettings, Qt
from PySide6.QtGui import QGuiApplication

from studio.ui.main_window import MainWindow
from studio.ui.settings import StudioSettings
from studio.ui.window_state import SMALLEST_RESTORED

from .conftest import services_with

GEOMETRY_MAGIC = b"\x01\xd9\xd0\xcb"
"""How QWidget::saveGeometry's data begins (then the format's version, then the frame)."""


def _new_window(qtbot, settings: StudioSettings, registry) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(settings, services_with(registry))
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_the_dock_layout_comes_back_on_the_next_start(  # type: ignore[no-untyped-def]
        make_window, qtbot, settings: StudioSettings, registry, sample_project: Path) -> None:
    window = make_window(sample_project)
    window.removeDockWidget(window.inspector_dock)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, window.inspector_dock)
    window.inspector_dock.show()
    assert window.dockWidgetArea(window.inspector_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert window.close()

    again = _new_window(qtbot, settings, registry)
    assert again.inspector_dock.isHidden(), "the welcome page shows no docks"
    assert again.open_project(sample_project), again.last_error
    assert again.dockWidgetArea(again.inspector_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert not again.inspector_dock.isHidden()
    again.close_project("cancel")


def test_a_dock_closed_by_hand_stays_closed_on_the_next_start(  # type: ignore[no-untyped-def]
        make_window, qtbot, settings: StudioSettings, registry, sample_project: Path) -> None:
    window = make_window(sample_project)
    window.inspector_dock.toggleViewAction().trigger()
    assert window.inspector_dock.isHidden()
    assert window.close()

    again = _new_window(qtbot, settings, registry)
    assert again.open_project(sample_project), again.last_error
    assert again.inspector_dock.isHidden()
    again.close_project("cancel")


def test_a_damaged_saved_geometry_leaves_a_usable_window(  # type: ignore[no-untyped-def]
        qtbot, settings: StudioSettings, registry) -> None:
    # the right header, then zeros where the frame should be: Qt restores it as a sliver
    settings.q.setValue("window/geometry", QByteArray(GEOMETRY_MAGIC + b"\x00\x03" + bytes(60)))
    settings.q.setValue("window/state", QByteArray(b"not a layout"))
    window = _new_window(qtbot, settings, registry)
    size = window.size()
    assert size.width() >= SMALLEST_RESTORED.width() and size.height() >= SMALLEST_RESTORED.height(), size


def test_garbage_of_another_type_is_ignored(qtbot, settings: StudioSettings, registry) -> None:  # type: ignore[no-untyped-def]
    settings.q.setValue("window/geometry", "1500x920+0+0")
    settings.q.setValue("window/state", 42)
    window = _new_window(qtbot, settings, registry)
    assert window.width() >= SMALLEST_RESTORED.width()


def test_a_geometry_from_a_larger_screen_ends_up_on_this_one(  # type: ignore[no-untyped-def]
        qtbot, settings: StudioSettings, registry) -> None:
    big = _new_window(qtbot, settings, registry)
    big.setGeometry(4000, 3000, 3000, 2000)
    settings.save_window(big.saveGeometry(), big.saveState())
    window = _new_window(qtbot, settings, registry)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.contains(window.geometry()), (window.geometry(), area)


def _saved_frame(path: Path) -> QRect:
    """The frame rectangle in the geometry a window saved (QWidget::saveGeometry's layout:
    magic, major and minor version, then the frame as left, top, right, bottom)."""
    data = bytes(QSettings(str(path), QSettings.Format.IniFormat).value("window/geometry").data())
    assert data.startswith(GEOMETRY_MAGIC), data[:8]
    left, top, right, bottom = struct.unpack(">4i", data[8:24])
    return QRect(left, top, right - left + 1, bottom - top + 1)


def test_the_first_window_fits_a_screen_smaller_than_its_default_size(  # type: ignore[no-untyped-def]
        qtbot, private_user_folders: Path, tmp_path: Path) -> None:
    """`kamishibai open`, as `make run` starts it, on the offscreen screen (smaller than the
    default 1500 x 920): the window it saves on closing lies on that screen, frame included."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KAMISHIBAI_QUIT_AFTER_MS": "300"}
    done = subprocess.run([sys.executable, "-m", "studio", "open"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    saved = list((private_user_folders / "config").rglob("settings.ini"))
    assert len(saved) == 1, saved
    frame = _saved_frame(saved[0])
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert area.contains(frame), (frame, area)
