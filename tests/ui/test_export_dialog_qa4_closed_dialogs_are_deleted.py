"""Each opening of the Export dialog made a new dialog that the window kept until it closed:
they piled up, each still following the project. A dialog closed (Cancel, Escape, Export) is now
deleted once control is back in the event loop; the window still reads its choices first."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QTimer
from PySide6.QtWidgets import QApplication

from studio.ui.dialogs.export_dialog import ExportDialog


def _close_when_shown(qtbot, how: str) -> None:  # type: ignore[no-untyped-def]
    """Close the export dialog as soon as its exec shows it: by Cancel, Escape or Export."""

    def close() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ExportDialog):
            QTimer.singleShot(10, close)
            return
        if how == "cancel":
            dialog.reject()
        elif how == "escape":
            dialog.close()
        else:
            dialog.path.setText("")  # nothing to write: the window reads the choices, then refuses
            dialog.accept()

    QTimer.singleShot(0, close)


def _alive(window) -> list[ExportDialog]:  # type: ignore[no-untyped-def]
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return window.findChildren(ExportDialog)


def test_opening_and_closing_the_export_dialog_leaves_none_behind(make_window, sample_project: Path,
                                                                 qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    monkeypatch.setattr(window, "show_error", lambda *_a, **_k: None)
    monkeypatch.setattr(window, "confirm", lambda *_a, **_k: False)
    assert _alive(window) == []
    for how in ("cancel", "escape", "cancel", "export", "escape"):
        _close_when_shown(qtbot, how)
        window.ask_export()
        qtbot.wait(1)  # back in the event loop: the closed dialog goes
        assert _alive(window) == [], f"a dialog closed by {how} is still alive"

