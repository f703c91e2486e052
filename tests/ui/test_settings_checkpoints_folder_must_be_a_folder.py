"""OK in Settings refuses a checkpoints folder that can't be one, saying why.

A file, a relative path or a mistyped folder was saved without a word; the engines then
said only that their weights were missing. A saved folder that is missing now (a drive not
plugged in) doesn't stop the rest of the dialog from being changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from studio.composition import default_registry
from studio.ui.dialogs.settings_dialog import SettingsDialog
from studio.ui.settings import StudioSettings


def _press_ok(dialog: SettingsDialog) -> list[str]:
    """Press OK; the texts of the warnings it showed (each closed once read)."""
    said: list[str] = []

    def read_box() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            said.append(box.text())
            box.close()
        else:
            QTimer.singleShot(20, read_box)

    QTimer.singleShot(20, read_box)
    buttons = dialog.findChild(QDialogButtonBox)
    buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    return said


def _dialog(qtbot, settings: StudioSettings) -> SettingsDialog:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(settings, default_registry())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


@pytest.mark.parametrize("kind", ["file", "relative", "missing"])
def test_ok_refuses_a_checkpoints_folder_that_isnt_one(qtbot, settings: StudioSettings, tmp_path: Path,
                                                       kind: str) -> None:  # type: ignore[no-untyped-def]
    dialog = _dialog(qtbot, settings)
    weights_file = tmp_path / "weights.safetensors"
    weights_file.write_bytes(b"0")
    typed = {"file": str(weights_file), "relative": "weights", "missing": str(tmp_path / "wieghts")}[kind]
    dialog.checkpoints.setText(typed)
    said = _press_ok(dialog)
    assert len(said) == 1 and "checkpoints folder" in said[0] and "Choose…" in said[0], said
    assert dialog.isVisible() and dialog.result() != SettingsDialog.DialogCode.Accepted
    assert dialog.focusWidget() is dialog.checkpoints
    assert settings.checkpoints_folder == ""


def test_ok_keeps_a_real_folder_and_a_saved_one_that_is_missing_now(qtbot, settings: StudioSettings,
                                                                    tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "weights").mkdir()
    dialog = _dialog(qtbot, settings)
    dialog.checkpoints.setText(str(tmp_path / "weights"))
    assert _press_ok(dialog) == [] and dialog.result() == SettingsDialog.DialogCode.Accepted

    settings.checkpoints_folder = str(tmp_path / "unplugged drive")
    again = _dialog(qtbot, settings)
    assert _press_ok(again) == [] and again.result() == SettingsDialog.DialogCode.Accepted
