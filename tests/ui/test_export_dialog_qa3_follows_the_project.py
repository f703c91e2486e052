"""The export dialog follows the project while it is open (QA: it read the branch's facts once,
so Export stayed off after the last clip had landed, and stayed on for a turn added without a
clip, or for a branch left with no turns at all). What the user chose in the form stays."""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddTurn, DeleteSubtree
from tests.ui.conftest import open_export_dialog

JOB_TIMEOUT_MS = 120_000


def test_the_export_dialog_follows_takes_landing_and_turns_coming_and_going(
        make_window, sample_project: Path, qtbot, monkeypatch, tmp_path: Path) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    dialog = open_export_dialog(window, monkeypatch)  # left open: it goes on following
    assert not dialog.export_button.isEnabled() and "not generated yet" in dialog.branch_label.text()
    target = tmp_path / "out" / "board.pdf"
    dialog.choose_format("pdf")
    dialog.path.setText(str(target))
    dialog.title.setText("Pilot")

    window.actions_.fill.trigger()  # every turn's clip lands while the dialog is open
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=JOB_TIMEOUT_MS)
    qtbot.waitUntil(dialog.export_button.isEnabled, timeout=5_000)
    assert "all generated" in dialog.branch_label.text()
    assert dialog.export_button.toolTip() == ""
    assert (dialog.chosen_format(), Path(dialog.path.text()), dialog.title.text()) == ("pdf", target, "Pilot")

    turns = window.session.project.tree.depth(leaf)
    ws.apply(AddTurn(leaf, "Character: Qiqi; Motion: wave; Background: day town.", "added"))
    qtbot.waitUntil(lambda: "added" in ws.branch, timeout=5_000)
    qtbot.waitUntil(lambda: not dialog.export_button.isEnabled(), timeout=5_000)
    assert f"turn {turns + 1}" in dialog.branch_label.text() and "1 not generated yet" in dialog.branch_label.text()

    window.actions_.undo.trigger()  # the turn without a clip is gone again
    qtbot.waitUntil(dialog.export_button.isEnabled, timeout=5_000)
    assert f"The branch ending at turn {turns}" in dialog.branch_label.text()

    first = ws.branch[1]
    ws.select(first, center=False)
    ws.apply(DeleteSubtree(first))  # the branch's every turn deleted: nothing to export
    qtbot.waitUntil(lambda: first not in window.session.project.tree.nodes, timeout=5_000)
    qtbot.waitUntil(lambda: "no turns" in dialog.branch_label.text(), timeout=5_000)
    assert not dialog.export_button.isEnabled()
    assert "Select a turn" in dialog.export_button.toolTip()
    assert dialog.title.text() == "Pilot", "the form keeps what the user chose"


def test_a_closed_export_dialog_stops_following(make_window, sample_project: Path, qtbot, monkeypatch) -> None:
    """Once closed, the dialog (kept by the window until it goes) reads nothing more."""
    from studio.ui.dialogs.export_dialog import ExportDialog

    window = make_window(sample_project)
    dialog = open_export_dialog(window, monkeypatch)
    reads: list[int] = []
    source = window.workspace.branch_facts
    dialog.follow(lambda: reads.append(1) or source(), window.session.changed)
    dialog.done(ExportDialog.DialogCode.Rejected)
    before = len(reads)
    tree = window.session.project.tree
    window.workspace.apply(AddTurn(tree.root_id, "Character: Qiqi; Motion: wave; Background: day town.", "late"))
    qtbot.waitUntil(lambda: "late" in window.session.project.tree.nodes, timeout=5_000)
    qtbot.wait(50)
    assert len(reads) == before
