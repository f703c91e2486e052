"""A storyboard sheet writes beside each value how far the turn moved it: stamina 5 with a
predicted -3 reads "Stamina 0 (-5)", not the prediction's "(-15)", and the next turn, at 0
already, shows no change."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.core import CharacterState, SetStartState, StateDeltas
from studio.export import ExportOptions, export_branch
from studio.export.branch import collect_branch
from studio.export.storyboard import state_line
from studio.storage import Project

from .helpers import COLOURS, add_turn

pypdf = pytest.importorskip("pypdf")


def _worn_out(tmp_path: Path) -> tuple[Project, str]:
    """Qiqi starts at stamina 5 and social 95; two turns each predict stamina -3 and social +2."""
    project = Project.create(tmp_path / "worn", name="Worn Out")
    project.apply(SetStartState("Qiqi", CharacterState(5, 95, 50)))
    parent = project.tree.root_id
    for index, deltas in enumerate((StateDeltas(-3, 2, 1), StateDeltas(-3, 2, -1))):
        parent = add_turn(project, parent, f"Character: Qiqi; Motion: run {index + 1}; Background: day town.",
                          COLOURS[index], deltas=deltas)
    return project, parent


def test_pdf_sheet_shows_the_change_applied_not_the_predicted(tmp_path: Path) -> None:
    project, leaf = _worn_out(tmp_path)
    with project:
        out = tmp_path / "board.pdf"
        export_branch(project, leaf, out, options=ExportOptions(panels_per_page=1))
    pages = [" ".join(page.extract_text().split()) for page in pypdf.PdfReader(str(out)).pages]
    assert len(pages) == 2, pages
    assert "Stamina 0 (-5) · Social 100 (+5) · Fun 55 (+5)" in pages[0], pages[0]
    assert "Stamina 0 · Social 100 · Fun 50 (-5)" in pages[1], pages[1]
    assert not any(wrong in " ".join(pages) for wrong in ("(-15)", "(+10)")), pages


def test_both_sheets_read_the_same_applied_change(tmp_path: Path) -> None:
    """The PNG sheet draws the same state line as the PDF (from the branch read for export)."""
    project, leaf = _worn_out(tmp_path)
    with project:
        branch = collect_branch(project, leaf)
    assert [state_line(turn) for turn in branch.turns] == ["Stamina 0 (-5) · Social 100 (+5) · Fun 55 (+5)",
                                                           "Stamina 0 · Social 100 · Fun 50 (-5)"]
