"""The export dialog names the turns whose chosen take is stale (QA: after choosing another
take of turn 2, the dialog said "5 turns, all generated." and only the finished export's note
said that turns 3-5 showed takes made before turn 2 changed). It says so before the export
now, with the key that re-rolls them, and follows the story while open: re-rolled, the note
goes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.ui.dialogs.export_dialog import BranchFacts
from tests.ui.conftest import generate_first_branch, open_export_dialog


def test_the_dialog_names_the_stale_turns_and_drops_them_once_rerolled(make_window, sample_project: Path, qtbot,
                                                                        monkeypatch) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot)
    tree = window.session.project.tree
    second = ws.branch[2]
    ws.select(second)
    window.actions_.reroll.trigger()  # a second take, kept beside the chosen one
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2 and not window.session.active_jobs(), timeout=60_000)
    chosen = tree.nodes[second].selected_take_id
    other = next(tile for tile in ws.inspector.takes.tiles if tile.take.id != chosen)
    qtbot.mouseClick(other.use_button, Qt.MouseButton.LeftButton)  # turns 3-5 become stale
    qtbot.waitUntil(lambda: window.session.project.tree.nodes[second].selected_take_id == other.take.id)
    ws.select(leaf)
    qtbot.waitUntil(lambda: ws.branch_facts().stale == (3, 4, 5))

    dialog = open_export_dialog(window, monkeypatch)
    text = dialog.branch_label.text().replace("\u200b", "")
    assert "5 turns, all generated." in text
    assert "Turns 3, 4 and 5 use a stale take" in text and "Shift+R on turn 3" in text
    assert dialog.export_button.isEnabled()  # a stale take can still be exported

    ws.select(ws.branch[3])
    window.actions_.reroll_branch.trigger()
    qtbot.waitUntil(lambda: "stale" not in dialog.branch_label.text(), timeout=60_000)
    assert "5 turns, all generated." in dialog.branch_label.text().replace("\u200b", "")


def test_many_stale_turns_are_counted_after_the_first_six() -> None:
    facts = BranchFacts(12, 12, "Qiqi sleeps.", stale=tuple(range(3, 13)))
    assert ("Turns 3, 4, 5, 6, 7, 8 and 4 more use a stale take (made before an earlier turn changed): "
            "Shift+R on turn 3") in facts.text()
    assert "Turn 7 uses a stale take" in BranchFacts(7, 7, "", stale=(7,)).text()
    assert "stale" not in BranchFacts(7, 7, "").text()
    assert "stale" not in BranchFacts(7, 5, "", stale=(3,)).text()  # turns to generate first: said instead
