"""Ctrl+E's "Replace the export?" names the PNG sheet's pages the export really writes.

It counted the pages from the turns alone (several turns a page); a turn's long dialogue goes
on in continuation panels, which add pages, so an existing later page (``board-04.png``) was
overwritten without a word."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import SetDialogue
from studio.core.story import DialogueLine
from studio.export.options import ExportFormat, sheet_page_count
from studio.export.sheet_png import png_page_paths

LINE = ("We have to reach the bakery before the bell rings, or the whole town will wake up hungry "
        "and we will never hear the end of it from the baker and her seven noisy cousins.")


def test_the_prompt_names_a_page_past_the_turns_count(make_window, sample_project: Path, qtbot, monkeypatch,
                                                      tmp_path: Path) -> None:
    from studio.export.api import export_branch
    from studio.ui.dialogs.export_dialog import ExportDialog
    from tests.ui.conftest import generate_first_branch

    window = make_window(sample_project)
    leaf = generate_first_branch(window, qtbot)
    project = window.session.project
    turns = [node.id for node in project.tree.path_to(leaf)[1:]]
    for node_id in turns:
        window.workspace.apply(SetDialogue(node_id, tuple(DialogueLine("Qiqi", LINE) for _ in range(12))))
    window.session.settle()
    window.workspace.select(leaf, center=False)

    folder = tmp_path / "exports"
    folder.mkdir()
    target = folder / "board.png"
    (tmp_path / "measure").mkdir()
    made = export_branch(project, leaf, tmp_path / "measure" / "board.png", ExportFormat.PNG)
    pages = len(made.paths)
    by_turns = sheet_page_count(len(turns), 3)
    assert pages > by_turns, "the dialogue goes on in continuation panels"
    stray = png_page_paths(target, pages)[-1]  # the last page this sheet writes, alone in the folder
    stray.write_bytes(b"another export's page")
    asked: list[str] = []
    queued: list[Path] = []

    def fake_exec(dialog: ExportDialog) -> int:
        dialog.path.setText(str(target))
        dialog.choose_format("png")
        dialog.panels.setCurrentIndex(dialog.panels.findData(3))
        return ExportDialog.DialogCode.Accepted

    monkeypatch.setattr(ExportDialog, "exec", fake_exec)
    monkeypatch.setattr(window.workspace, "queue_export", lambda out, *_a, **_k: queued.append(out))
    monkeypatch.setattr(window, "confirm", lambda _title, text: asked.append(text) or False)
    window.actions_.export.trigger()
    assert asked and f"{stray.name} already exists" in asked[0], asked
    assert queued == [] and stray.read_bytes() == b"another export's page"
