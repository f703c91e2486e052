"""Leaving a new turn being written, however it is left (a click on another card, an arrow
key, a search, an undo taking its turn away, a delete, closing the project), keeps what was
typed as Esc does: Enter on the same turn brings it back (QA: anything but Esc dropped the
typing without a word)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from studio.core.commands import AddTurn
from studio.ui.canvas.geometry import CARD_H, CARD_W
from studio.ui.drafts_kept import load_drafts
from studio.ui.workspace import (
    DRAFT_DROPPED,
    DRAFT_KEPT_WITH_DELETED,
    DRAFT_PARENT_GONE,
    DRAFT_RESUMED,
)

MOTION = "slowly climbs the clock tower"
FREE = "pigeons scatter"


def _opened(make_window, sample_project: Path):  # type: ignore[no-untyped-def]
    """The window on the sample story, its workspace and the first branch's last turn."""
    window = make_window(sample_project)
    tree = window.session.project.tree
    return window, window.workspace, tree.leaves_under(tree.root_id)[0].id


def _new_turn(workspace, node_id: str) -> None:  # type: ignore[no-untyped-def]
    """Enter on ``node_id`` in the tree, as the user opens a new turn."""
    workspace.select(node_id, center=False)
    workspace.view.setFocus()
    QTest.keyClick(workspace.view, Qt.Key.Key_Return)
    assert workspace.inspector.draft_parent == node_id


def _type_draft(workspace) -> str:  # type: ignore[no-untyped-def]
    editor = workspace.inspector.editor
    QTest.keyClicks(editor.motion, MOTION)
    QTest.keyClicks(editor.free_text, FREE)
    return str(editor.text())


def _assert_brought_back(window, workspace, node_id: str, typed: str) -> None:  # type: ignore[no-untyped-def]
    _new_turn(workspace, node_id)
    assert workspace.inspector.editor.text() == typed
    assert workspace.inspector.editor.motion.text() == MOTION
    assert window.status_label.text() == DRAFT_RESUMED


def _click_card(workspace, node_id: str, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A left click in the middle of ``node_id``'s card, brought into view first."""
    view = workspace.view
    cell = workspace.scene.cells[node_id]
    view.centerOn(cell.x + CARD_W / 2, cell.y + CARD_H / 2)
    point: QPoint = view.mapFromScene(cell.x + CARD_W / 2, cell.y + CARD_H / 2)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_clicking_another_card_puts_the_typing_aside(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, ws, leaf = _opened(make_window, sample_project)
    other = ws.tree.nodes[leaf].parent_id
    assert other is not None
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    count = len(ws.tree.nodes)

    _click_card(ws, other, qtbot)
    assert ws.current_id == other
    assert ws.inspector.draft_parent is None and ws.inspector.node_id == other  # the inspector shows that turn
    assert window.status_label.text() == DRAFT_DROPPED
    window.session.settle()
    assert len(window.session.project.tree.nodes) == count  # nothing added, nothing saved into the other turn
    assert MOTION not in window.session.project.tree.node(other).instruction.raw

    _new_turn(ws, other)  # a new turn elsewhere starts afresh
    assert MOTION not in ws.inspector.editor.text()
    _click_card(ws, leaf, qtbot)  # an untouched draft is left without a word
    assert window.status_label.text() != DRAFT_DROPPED
    _assert_brought_back(window, ws, leaf, typed)


def test_an_arrow_key_in_the_tree_puts_the_typing_aside(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, ws, leaf = _opened(make_window, sample_project)
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    ws.view.setFocus()
    QTest.keyClick(ws.view, Qt.Key.Key_Left)  # to the turn above
    assert ws.current_id == ws.tree.nodes[leaf].parent_id
    assert ws.inspector.draft_parent is None
    assert window.status_label.text() == DRAFT_DROPPED
    QTest.keyClick(ws.view, Qt.Key.Key_Right)  # back down the same branch
    assert ws.current_id == leaf
    assert ws.inspector.editor.text() != typed  # the turn's own line is shown, not the draft's
    _assert_brought_back(window, ws, leaf, typed)


def test_a_search_puts_the_typing_aside(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, ws, leaf = _opened(make_window, sample_project)
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    said: list[str] = []
    ws.message.connect(said.append)
    ws.open_search()
    word = ws.tree.nodes[ws.tree.child_ids(ws.tree.root_id)[0]].instruction.raw.split()[0]
    ws.search.edit.setText(word)
    qtbot.waitUntil(lambda: ws.inspector.draft_parent is None, timeout=5_000)
    assert ws.current_id in ws.matches
    assert DRAFT_DROPPED in said
    _assert_brought_back(window, ws, leaf, typed)


def test_deleting_the_turn_keeps_the_typing_for_undo(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, ws, leaf = _opened(make_window, sample_project)
    session = window.session
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    asked: list[str] = []
    ws.confirm = lambda title, text: asked.append(text) or True  # type: ignore[method-assign]
    ws.delete_current()  # Edit > Delete while the new turn is open
    session.settle()
    qtbot.waitUntil(lambda: leaf not in session.project.tree.nodes, timeout=5_000)
    assert asked, "the typing is written work: the delete asks first"
    assert ws.inspector.draft_parent is None
    qtbot.waitUntil(lambda: DRAFT_KEPT_WITH_DELETED in window.status_label.text(), timeout=5_000)

    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: leaf in session.project.tree.nodes, timeout=5_000)
    _assert_brought_back(window, ws, leaf, typed)


def test_a_delete_refused_at_the_question_leaves_the_draft_open(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    _window, ws, leaf = _opened(make_window, sample_project)
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    ws.confirm = lambda title, text: False  # type: ignore[method-assign]
    ws.delete_current()
    assert leaf in ws.tree.nodes
    assert ws.inspector.draft_parent == leaf and ws.inspector.editor.text() == typed


def test_an_undo_taking_the_turn_away_keeps_the_typing_for_redo(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, ws, leaf = _opened(make_window, sample_project)
    session = window.session
    added = "keptturn001"
    ws.apply(AddTurn(leaf, "Qiqi waves.", node_id=added))
    session.settle()
    qtbot.waitUntil(lambda: added in ws.tree.nodes, timeout=5_000)
    _new_turn(ws, added)
    typed = _type_draft(ws)
    said: list[str] = []
    ws.message.connect(said.append)

    ws.undo()  # takes the added turn, the draft's, away
    session.settle()
    qtbot.waitUntil(lambda: added not in ws.tree.nodes and ws.inspector.draft_parent is None, timeout=5_000)
    assert DRAFT_PARENT_GONE in said
    ws.redo()
    session.settle()
    qtbot.waitUntil(lambda: added in ws.tree.nodes, timeout=5_000)
    _assert_brought_back(window, ws, added, typed)


def test_closing_the_project_keeps_the_typing_until_it_opens_again(make_window, sample_project: Path, settings,  # type: ignore[no-untyped-def]
                                                                 qtbot) -> None:
    window, ws, leaf = _opened(make_window, sample_project)
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    count = len(ws.tree.nodes)
    assert window.close_project("keep")
    assert load_drafts(settings.q, sample_project) == {leaf: typed}  # in the settings file

    assert window.open_project(sample_project)
    ws = window.workspace
    assert len(ws.tree.nodes) == count  # no turn was made of it
    _assert_brought_back(window, ws, leaf, typed)
    ws.inspector.editor.motion.clear()  # the typing taken out again: nothing left to keep
    ws.inspector.editor.free_text.clear()
    assert window.close_project("keep")
    assert load_drafts(settings.q, sample_project) == {}


def test_an_unreadable_drafts_entry_opens_the_project_with_none(make_window, sample_project: Path, settings,  # type: ignore[no-untyped-def]
                                                               qtbot) -> None:
    settings.q.setValue("projects/drafts_put_aside", "{not json")
    window, ws, leaf = _opened(make_window, sample_project)
    _new_turn(ws, leaf)
    assert window.status_label.text().startswith("New turn: describe it")
    typed = _type_draft(ws)
    assert window.close_project("keep")
    assert load_drafts(settings.q, sample_project) == {leaf: typed}  # the bad entry was replaced


def test_an_edited_instruction_is_kept_when_another_turn_is_selected(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                    qtbot) -> None:
    """Typing in an existing turn's instruction is saved into the turn on leaving it (one undo
    step), as the status bar says."""
    window, ws, leaf = _opened(make_window, sample_project)
    other = ws.tree.nodes[leaf].parent_id
    ws.select(leaf, center=False)
    editor = ws.inspector.editor
    editor.motion.clear()
    QTest.keyClicks(editor.motion, MOTION)
    _click_card(ws, other, qtbot)
    window.session.settle()
    qtbot.waitUntil(lambda: MOTION in window.session.project.tree.node(leaf).instruction.raw, timeout=5_000)
    assert window.status_label.text().startswith("Kept the edited instruction of turn")


def test_enter_again_in_the_tree_keeps_the_open_draft(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window, ws, leaf = _opened(make_window, sample_project)
    _new_turn(ws, leaf)
    typed = _type_draft(ws)
    ws.view.setFocus()  # the tree takes the keyboard, and Enter there again
    QTest.keyClick(ws.view, Qt.Key.Key_Return)
    assert ws.inspector.draft_parent == leaf
    assert ws.inspector.editor.text() == typed
    assert window.status_label.text() == DRAFT_RESUMED
