"""The start's notice that the settings can't be saved (here: a folder where the settings
file belongs) stays in the status bar while its message box is open, beside the "Opened X"
that the start's project then says (QA: "Opened X" replaced it while the box was still up),
and goes with the box."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from studio.ui.app_paths import AppPaths
from studio.ui.settings import StudioSettings

from .conftest import services_with


def _open_boxes(window) -> list[QMessageBox]:  # type: ignore[no-untyped-def]
    return [box for box in window.findChildren(QMessageBox) if box.isVisible()]


def test_the_unsaved_settings_notice_stays_beside_the_opened_project(  # type: ignore[no-untyped-def]
        qtbot, registry, sample_project: Path) -> None:
    from studio.ui.app import show_at_start
    from studio.ui.main_window import MainWindow

    paths = AppPaths.standard()
    paths.settings_file.mkdir(parents=True)  # can't be written: nothing changed now is kept
    window = MainWindow(StudioSettings(paths=paths), services_with(registry))
    window.ask_close_policy = lambda count: "cancel"  # type: ignore[method-assign]
    qtbot.addWidget(window)
    show_at_start(window, sample_project)
    qtbot.waitUntil(lambda: window.session is not None, timeout=30_000)
    notice = window.last_error
    assert notice is not None and str(paths.settings_file) in notice.message
    assert window.status_label.text() == f"Opened {window.session.project.name_and_folder}"
    kept = window.warning_label.text()
    assert not window.warning_label.isHidden() and kept.startswith("⚠ ")
    assert str(paths.settings_file) in kept and "\n" not in kept  # one line; the box holds it whole
    assert window.warning_label.toolTip() == f"⚠ {notice.message}"
    assert window.status_text() == f"Opened {window.session.project.name_and_folder} | {kept}"
    window.show_message("Seed unlocked.")  # later messages come and go beside it
    assert window.status_text() == f"Seed unlocked. | {kept}"
    (box,) = _open_boxes(window)
    assert box.text() == notice.message
    box.close()  # read and closed: the status bar no longer holds it
    QApplication.processEvents()
    assert window.warning_label.isHidden() and window.status_text() == "Seed unlocked."
    window.close_project("cancel")


def test_only_the_newest_open_warning_is_kept_and_never_twice(make_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    window.show_error("The first warning.")
    assert window.status_text() == "⚠ The first warning."  # said once, not in both places
    window.show_error("The second warning.")
    assert window.status_text() == "⚠ The second warning."
    window.show_message("Opened Story")
    assert window.status_text() == "Opened Story | ⚠ The second warning."
    second = next(box for box in _open_boxes(window) if box.text() == "The second warning.")
    second.close()
    QApplication.processEvents()
    assert window.status_text() == "Opened Story | ⚠ The first warning."  # its box is still open
    for box in _open_boxes(window):
        box.close()
    QApplication.processEvents()
    assert window.status_text() == "Opened Story"
