"""A file name typed with a dot at its end ("episode.") is written as "episode.mp4": the dialog
added the format's suffix after the dot ("episode..mp4")."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from studio.ui.dialogs.export_dialog import ExportDialog


def test_a_name_ending_in_a_dot_gets_one_suffix(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = ExportDialog(tmp_path / "story.mp4", "story")
    qtbot.addWidget(dialog)
    dialog.path.setText("episode.")
    assert dialog.choices().out == tmp_path / "episode.mp4"
    dialog.path.setText(str(tmp_path / "cut v1.2."))
    dialog.choose_format("gif")
    assert dialog.choices().out == tmp_path / "cut v1.2.gif"
