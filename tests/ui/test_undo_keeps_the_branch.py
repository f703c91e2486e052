"""Undoing a step of "Re-roll branch" keeps the selection on the branch the author is on. A
branch re-roll from above a fork re-rolls both branches, one undo entry a turn; undoing the
entry of a turn on the other branch changed only that turn, and the window selected it: the
shown branch switched under the author. (QA: "I undo and I'm suddenly on the other branch".)"""

from __future__ import annotations

from pathlib import Path

from studio.core.commands import AddBranchRerollTake, SetNarration
from studio.core.model import Take, new_id
from studio.core.tree import StoryTree


def _fork_point(tree: StoryTree) -> str:
    """The first turn (from the start) with two alternatives below it."""
    return next(n for n in tree.nodes if len(tree.child_ids(n)) >= 2)


def _undo(window, qtbot, label: str) -> None:  # type: ignore[no-untyped-def]
    """Undo the last step (named ``label``) and wait until the window has shown it."""
    ws, session = window.workspace, window.session
    assert session.project.document.history.undo_label == label
    messages: list[str] = []
    ws.message.connect(messages.append)
    ws.undo()
    session.settle()
    qtbot.waitUntil(lambda: any(m.startswith(f"Undo {label}") for m in messages), timeout=5000)
    ws.message.disconnect(messages.append)


def test_undoing_a_branch_reroll_stays_on_the_shown_branch(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    fork = _fork_point(tree)
    mine, other = (tree.leaves_under(child)[0].id for child in tree.child_ids(fork)[:2])
    ws.select(mine, center=False)
    shown = list(ws.branch)
    assert other not in shown
    for node_id in (mine, other):  # as a branch re-roll from above the fork ends: the other branch last
        session.project.apply(AddBranchRerollTake(Take(id=new_id(), node_id=node_id, engine="sketch")))
    session.settle()
    qtbot.waitUntil(lambda: all(session.project.tree.takes_of(n) for n in (mine, other)), timeout=5000)

    _undo(window, qtbot, "Re-roll branch")  # the other branch's turn: the selection stays
    assert not session.project.tree.takes_of(other)
    assert ws.current_id == mine and ws.branch == shown
    assert "another branch" in window.status_label.text()

    ws.select(fork, center=False)  # on the shown branch, above the changed turn: it is selected
    _undo(window, qtbot, "Re-roll branch")
    assert not session.project.tree.takes_of(mine)
    assert ws.current_id == mine and ws.branch == shown


def test_undoing_an_edit_on_the_shown_branch_still_selects_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    fork = _fork_point(tree)
    mine = tree.leaves_under(tree.child_ids(fork)[0])[0].id
    ws.select(mine, center=False)
    session.project.apply(SetNarration(fork, "The road splits."))
    session.settle()
    _undo(window, qtbot, "Edit narration")  # the fork is on the shown branch: it is selected, the branch stays
    qtbot.waitUntil(lambda: ws.current_id == fork, timeout=5000)
    assert mine in ws.branch
