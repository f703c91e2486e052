"""The export dialog turns off the controls that the chosen format does not use (the export
would leave them out), says which formats use them, and keeps their values."""

from __future__ import annotations

from pathlib import Path


def _on(dialog) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    names = ("keep_size", "width_box", "height_box", "fps", "crossfade", "captions", "overlay", "title", "panels",
             "aspect")
    return {name: getattr(dialog, name).isEnabled() for name in names}


def test_each_format_offers_only_what_it_uses(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.export_dialog import ExportDialog

    dialog = ExportDialog(tmp_path / "episode.mp4", "Qiqi")
    qtbot.addWidget(dialog)
    video = _on(dialog)
    assert video == {"keep_size": True, "width_box": False, "height_box": False, "fps": True, "crossfade": True,
                     "captions": True, "overlay": True, "title": True, "panels": False, "aspect": False}
    assert "Storyboard (PDF) and Storyboard pages (PNG)" in dialog.panels.toolTip()
    dialog.keep_size.setChecked(False)
    dialog.overlay.setChecked(True)
    dialog.crossfade.setValue(0.5)
    assert dialog.width_box.isEnabled() and dialog.height_box.isEnabled()
    dialog.choose_format("pdf")
    sheet = _on(dialog)
    assert sheet == {"keep_size": False, "width_box": False, "height_box": False, "fps": False, "crossfade": False,
                     "captions": False, "overlay": False, "title": True, "panels": True, "aspect": True}
    assert "Not used by Storyboard (PDF)" in dialog.crossfade.toolTip() and "Video (MP4)" in dialog.crossfade.toolTip()
    assert "Not used by Storyboard (PDF)" in dialog.width_box.toolTip()
    dialog.choose_format("srt")
    timed = _on(dialog)
    assert timed["fps"] and timed["crossfade"] and not timed["captions"] and not timed["overlay"]
    assert not timed["keep_size"] and not timed["width_box"] and not timed["panels"]
    dialog.choose_format("webm")  # back to a video: the values set before are there
    assert _on(dialog)["width_box"] and dialog.overlay.isChecked() and dialog.crossfade.value() == 0.5
    assert dialog.choices().options().overlay


def test_a_dialog_opened_on_a_sheet_starts_with_the_sheet_controls(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from studio.ui.dialogs.export_dialog import ExportDialog

    dialog = ExportDialog(tmp_path / "board.png", "Qiqi")
    qtbot.addWidget(dialog)
    assert dialog.chosen_format() == "png"
    assert dialog.panels.isEnabled() and not dialog.overlay.isEnabled() and not dialog.fps.isEnabled()
