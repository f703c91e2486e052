"""The export confirmation names every file a PNG sheet would replace or remove, later pages
included (QA: board-02.png of another export was overwritten without asking)."""

from __future__ import annotations

from pathlib import Path


def test_exporting_a_png_sheet_over_a_later_page_asks_first(make_window, sample_project: Path, qtbot, monkeypatch,
                                                            tmp_path: Path) -> None:
    from studio.ui.dialogs.export_dialog import ExportDialog

    window = make_window(sample_project)
    turns = window.workspace.branch_facts().last_turn
    assert turns >= 2, "one panel a page: a page per turn"
    folder = tmp_path / "exports"
    folder.mkdir()
    target = folder / "board.png"
    stray = folder / f"board-{turns:02d}.png"  # the last page this sheet writes; no board-01.png
    stray.write_bytes(b"another export's page")
    queued: list[Path] = []
    asked: list[str] = []
    answer = [False]

    def fake_exec(dialog: ExportDialog) -> int:
        dialog.path.setText(str(target))
        dialog.choose_format("png")
        dialog.panels.setCurrentIndex(dialog.panels.findData(1))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    monkeypatch.setattr(window.workspace, "queue_export", lambda out, *_a, **_k: queued.append(out))
    monkeypatch.setattr(window, "confirm", lambda _title, text: asked.append(text) or answer[0])
    window.actions_.export.trigger()
    assert asked and f"{stray.name} already exists" in asked[0] and queued == []
    assert stray.read_bytes() == b"another export's page"
    answer[0] = True
    window.actions_.export.trigger()
    assert queued == [target]
