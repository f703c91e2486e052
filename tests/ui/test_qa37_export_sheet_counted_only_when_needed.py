"""The export dialog's check for files to replace lays a PNG sheet out (on the window's thread)
only where a file of the sheet's names is there: a long sheet into a fresh folder is queued at
once, not after a second layout of every turn."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("stray", ["", "board-02.png", "board.png"])
def test_the_sheet_is_counted_only_when_a_file_of_its_names_is_there(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                                     monkeypatch, tmp_path: Path, stray: str) -> None:
    import studio.export as export
    from studio.ui.dialogs.export_dialog import ExportDialog

    window = make_window(sample_project)
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "board-notes.txt").write_text("a file of another name")
    if stray:
        (folder / stray).write_bytes(b"kept")
    target = folder / "board.png"
    counted: list[int] = []
    real = export.collect_branch  # read to lay the sheet out (or, where a turn has no clip, to find that)
    monkeypatch.setattr(export, "collect_branch", lambda *a, **k: counted.append(1) or real(*a, **k))
    queued: list[Path] = []
    asked: list[str] = []

    def fake_exec(dialog: ExportDialog) -> int:
        dialog.path.setText(str(target))
        dialog.choose_format("png")
        dialog.panels.setCurrentIndex(dialog.panels.findData(1))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    monkeypatch.setattr(window.workspace, "queue_export", lambda out, *_a, **_k: queued.append(out))
    monkeypatch.setattr(window, "confirm", lambda _title, text: asked.append(text) or False)
    window.actions_.export.trigger()
    if stray:
        assert counted == [1] and asked and stray in asked[0] and queued == []
        assert (folder / stray).read_bytes() == b"kept"
    else:
        assert counted == [] and asked == [] and queued == [target]
