"""The command line exports WebVTT subtitles (--format vtt); the window's export dialog did
not offer them. It lists "Subtitles (WebVTT)" with a tooltip as it does every format, and the
file's suffix follows the choice both ways, as for SRT."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.dialogs.export_dialog import ExportDialog


def test_webvtt_is_a_labelled_format_whose_suffix_follows_the_choice(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = ExportDialog(tmp_path / "episode.mp4", "Pilot")
    qtbot.addWidget(dialog)
    index = dialog.format.findData("vtt")
    assert index >= 0, "WebVTT is not offered"
    assert dialog.format.itemText(index) == "Subtitles (WebVTT)"
    tip = dialog.format.itemData(index, Qt.ItemDataRole.ToolTipRole) or ""
    srt_tip = dialog.format.itemData(dialog.format.findData("srt"), Qt.ItemDataRole.ToolTipRole)
    assert "WebVTT" in tip and tip != srt_tip

    dialog.choose_format("srt")
    assert Path(dialog.path.text()).name == "episode.srt"
    dialog.format.setCurrentIndex(index)
    assert Path(dialog.path.text()).name == "episode.vtt"  # not "episode.srt.vtt"
    assert dialog.format.toolTip() == tip
    assert not dialog.keep_size.isEnabled() and not dialog.panels.isEnabled()  # as for SRT
    choices = dialog.choices()
    assert choices.fmt == "vtt" and choices.out == tmp_path / "episode.vtt"
    assert choices.options().size is None
    dialog.choose_format("srt")
    assert Path(dialog.path.text()).name == "episode.srt"

    dialog.path.setText(str(tmp_path / "web cut.VTT"))  # a typed suffix chooses the format
    dialog.path.editingFinished.emit()
    assert dialog.chosen_format() == "vtt" and dialog.choices().out.name.lower() == "web cut.vtt"
