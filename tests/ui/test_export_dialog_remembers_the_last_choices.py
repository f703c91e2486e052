"""Ctrl+E opens with the project's last export choices (file, format, options) rather than the
defaults every time: an author exporting a sheet again after a re-roll had to choose the
format, the panels and the title card again. Another project starts from the defaults."""

from __future__ import annotations

from pathlib import Path

from studio.composition import create_sample_project
from tests.ui.conftest import open_export_dialog


def test_the_export_dialog_opens_with_the_last_choices(make_window, sample_project: Path, monkeypatch,
                                                       tmp_path: Path) -> None:
    from studio.ui.dialogs.export_dialog import ExportDialog

    window = make_window(sample_project)
    target = tmp_path / "sheets" / "board.pdf"

    def choose(dialog: ExportDialog) -> int:
        dialog.choose_format("pdf")
        dialog.path.setText(str(target))
        dialog.panels.setCurrentIndex(0)
        dialog.aspect.setCurrentIndex(1)
        dialog.title.setText("Pilot")
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", choose)
    window.actions_.export.trigger()  # the branch is not generated: the export is refused, the choices kept

    again = open_export_dialog(window, monkeypatch)
    assert again.chosen_format() == "pdf"
    assert Path(again.path.text()) == target
    assert (again.panels.currentData(), again.aspect.currentData(), again.title.text()) == (1, "16:9", "Pilot")
    assert again.choices().out == target

    other = create_sample_project(tmp_path / "other.kamishibai")
    other_path = other.path
    other.close()
    assert window.close_project("cancel") and window.open_project(other_path)
    fresh = open_export_dialog(window, monkeypatch)
    assert fresh.chosen_format() == "mp4" and fresh.title.text() != "Pilot"
