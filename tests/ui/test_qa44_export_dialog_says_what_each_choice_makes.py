"""The export dialog's Format and Captions lists show words an author reads ("Video (MP4)",
"Burned into the picture"), not the export's codes ("otio", "burn"), each option with a
tooltip saying what it makes; the codes stay the items' data, and the export gets them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.dialogs.export_dialog import ExportDialog


def _items(combo) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return [(combo.itemText(i), combo.itemData(i), combo.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
            for i in range(combo.count())]


def test_formats_and_captions_are_named_in_words_with_a_tooltip_each(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = ExportDialog(tmp_path / "episode.mp4", "Pilot")
    qtbot.addWidget(dialog)
    formats = _items(dialog.format)
    assert [(text, code) for text, code, _ in formats] == [
        ("Video (MP4)", "mp4"), ("Video (WebM)", "webm"), ("Animated GIF", "gif"), ("Storyboard (PDF)", "pdf"),
        ("Storyboard pages (PNG)", "png"), ("Subtitles (SRT)", "srt"), ("Subtitles (WebVTT)", "vtt"),
        ("Editor timeline (OpenTimelineIO)", "otio")]
    captions = _items(dialog.captions)
    assert [(text, code) for text, code, _ in captions] == [
        ("None", "none"), ("Burned into the picture", "burn"), ("Subtitle file beside the video", "srt")]
    tips = [tip for _, _, tip in formats + captions]
    assert all(len(tip) > 20 for tip in tips) and len(set(tips)) == len(tips)
    assert "video editor" in formats[-1][2] and "turned off" in captions[2][2]


def test_the_chosen_words_give_the_export_its_codes(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    dialog = ExportDialog(tmp_path / "episode.mp4", "Pilot")
    qtbot.addWidget(dialog)
    dialog.format.setCurrentIndex(dialog.format.findText("Editor timeline (OpenTimelineIO)"))
    assert dialog.choices().fmt == "otio" and Path(dialog.path.text()).suffix == ".otio"
    assert "video editor" in dialog.format.toolTip()
    dialog.format.setCurrentIndex(dialog.format.findText("Video (WebM)"))
    dialog.captions.setCurrentIndex(dialog.captions.findText("Burned into the picture"))
    chosen = dialog.choices()
    assert (chosen.fmt, chosen.captions, chosen.out.suffix) == ("webm", "burn", ".webm")
    assert "drawn onto the frames" in dialog.captions.toolTip()
    dialog.format.setCurrentIndex(dialog.format.findText("Storyboard (PDF)"))
    assert dialog.captions.toolTip().startswith("Not used by Storyboard (PDF): only by Video (MP4)")
    dialog.path.setText(str(tmp_path / "board.png"))
    dialog.path.editingFinished.emit()  # a typed suffix still chooses its format
    assert dialog.format.currentText() == "Storyboard pages (PNG)" and dialog.choices().fmt == "png"
