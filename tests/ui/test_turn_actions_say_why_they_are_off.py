"""Re-roll, Re-roll branch, Fork, Delete, the two Move alternative actions and Export say in
their tooltips why they are off, as Generate, Play and Fill do; on, the tooltip is the action's
name again. (QA: they were greyed out with no word why, on the story's start or on a turn with
no alternative to move past.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction

from studio.core.tree import StoryTree


def _name(action: QAction) -> str:
    """The tooltip Qt gives an action without one of its own (its text, less the mnemonic)."""
    return QAction(action.text()).toolTip()


def _fork_point(tree: StoryTree) -> str:
    return next(n for n in tree.nodes if len(tree.child_ids(n)) >= 2)


def test_turn_actions_say_why_they_are_off_on_the_start(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    ws, a = window.workspace, window.actions_
    tree = window.session.project.tree
    assert ws.current_id == tree.root_id
    expected = {
        a.reroll: "The start of the story can't be re-rolled: select a turn",
        a.reroll_branch: "The start of the story can't be re-rolled: select a turn to re-roll it and the turns "
                         "below it",
        a.fork: "The start of the story can't be forked: select a turn",
        a.delete: "The start of the story can't be deleted: select a turn",
        a.move_up: "The start of the story has no alternatives to move among: select a turn",
        a.move_down: "The start of the story has no alternatives to move among: select a turn",
    }
    for action, tip in expected.items():
        assert not action.isEnabled(), action.text()
        assert action.toolTip() == tip
        button = window.toolbar.widgetForAction(action)
        assert button is None or button.toolTip() == tip  # the toolbar's button says it too

    turn = tree.child_ids(tree.root_id)[0]
    ws.select(turn)
    for action in (a.reroll, a.reroll_branch, a.fork, a.delete):
        assert action.isEnabled() and action.toolTip() == _name(action)


def test_move_says_where_the_turn_stands_among_its_alternatives(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    ws, a = window.workspace, window.actions_
    tree = window.session.project.tree
    fork = _fork_point(tree)
    top, *_rest, bottom = tree.child_ids(fork)
    ws.select(top)
    assert not a.move_up.isEnabled() and a.move_up.toolTip().startswith("Already the top alternative")
    assert a.move_down.isEnabled() and a.move_down.toolTip() == _name(a.move_down)
    ws.select(bottom)
    assert a.move_up.isEnabled() and a.move_up.toolTip() == _name(a.move_up)
    assert not a.move_down.isEnabled() and a.move_down.toolTip().startswith("Already the bottom alternative")
    only = next(n for n in tree.nodes if n != tree.root_id and len(tree.child_ids(tree.node(n).parent_id)) == 1)
    ws.select(only)
    for action in (a.move_up, a.move_down):
        assert not action.isEnabled()
        assert action.toolTip() == "This turn has no alternatives to move among: Fork (F) makes one"


def test_export_says_why_it_is_off_and_a_closed_project_leaves_no_reasons(make_window, tmp_path: Path) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "empty.kamishibai", "Empty"), window.last_error
    a = window.actions_
    assert not a.export.isEnabled()
    assert a.export.toolTip() == "Nothing to export: this branch has no turns yet"
    assert a.reroll.toolTip().startswith("The start of the story")
    window.close_project("cancel")
    for action in (a.export, a.reroll, a.fork, a.delete, a.move_up, a.generate):
        assert not action.isEnabled()
        assert action.toolTip() == _name(action), "a reason about the closed project's selection stayed"
