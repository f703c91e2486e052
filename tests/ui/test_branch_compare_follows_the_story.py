"""The Compare branches window follows the story while it is open: a take that lands shows in
its column, a branch deleted gives way to the default pick, a story left with one branch says
there is nothing to compare (and Undo brings the columns back); a story of one branch opens
no empty window but says how to make another."""

from __future__ import annotations

from pathlib import Path

from tests.ui.branch_compare_story import JOB_TIMEOUT_MS, generate_every_branch, parted_at


def _fork(ws, qtbot, node_id: str) -> str:  # type: ignore[no-untyped-def]
    """Fork turn ``node_id``; the new branch's leaf."""
    before = {leaf.id for leaf in ws.tree.leaves_under(ws.tree.root_id)}
    ws.select(node_id, center=False)
    ws.fork()
    qtbot.waitUntil(lambda: len(ws.tree.leaves_under(ws.tree.root_id)) == len(before) + 1, timeout=JOB_TIMEOUT_MS)
    return next(leaf.id for leaf in ws.tree.leaves_under(ws.tree.root_id) if leaf.id not in before)


def _delete(ws, qtbot, node_id: str) -> None:  # type: ignore[no-untyped-def]
    ws.select(node_id, center=False)
    ws.delete_current()
    qtbot.waitUntil(lambda: node_id not in ws.tree.nodes, timeout=JOB_TIMEOUT_MS)


def test_a_take_landing_and_a_branch_deleted_while_the_window_is_open(make_window, sample_project: Path,
                                                                     qtbot) -> None:
    window = make_window(sample_project)
    first, second = generate_every_branch(window, qtbot)
    ws = window.workspace
    third = _fork(ws, qtbot, first)
    ws.select(first, center=False)
    compare = ws.compare_branches()
    assert compare is not None
    assert (compare.left.leaf, compare.right.leaf) == (first, third)
    assert compare.right.player.paths == [""]

    ws.reroll(third)  # its take lands while the window is open
    qtbot.waitUntil(lambda: compare.right.player.paths[0] != "", timeout=JOB_TIMEOUT_MS)
    tree = ws.tree
    assert compare.right.player.paths == [ws._abs(tree.selected_take(third).clip_path)]
    qtbot.waitUntil(lambda: f"Stamina {tree.state_of(third).stamina}" in compare.right.turns.topLevelItem(0).text(1),
                    timeout=5000)
    assert "1 of 1 generated" in compare.right.caption.text()

    _delete(ws, qtbot, third)  # the right column's branch goes: the nearest other takes its place
    qtbot.waitUntil(lambda: compare.right.leaf == second, timeout=5000)
    assert compare.isVisible() and compare.left.leaf == first
    assert compare.right.picker.count() == 2 and compare.right.picker.findData(third) < 0
    same = parted_at(ws.tree, first, second)
    assert [row.number for row in compare.right.rows] == list(range(same + 1, ws.tree.depth(second) + 1))

    # the second branch goes from where it parts: one branch is left, and the window says so
    fork_point = [n.id for n in ws.tree.path_to(second)][same + 1]
    _delete(ws, qtbot, fork_point)
    qtbot.waitUntil(lambda: compare.notice.isVisible(), timeout=5000)
    assert compare.isVisible() and not compare.body.isVisible()
    assert "Nothing to compare" in compare.notice.text() and "Fork" in compare.notice.text()
    assert not compare.play_button.isVisible() and not compare.slider.isVisible()

    ws.undo()  # the branch comes back: so do the columns
    qtbot.waitUntil(lambda: compare.body.isVisible(), timeout=JOB_TIMEOUT_MS)
    assert {compare.left.leaf, compare.right.leaf} == {first, second}
    assert not compare.notice.isVisible()
    compare.close()


def test_a_story_of_one_branch_says_there_is_nothing_to_compare(make_window, sample_project: Path,
                                                               qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = ws.tree
    first, second = (leaf.id for leaf in tree.leaves_under(tree.root_id))
    same = parted_at(tree, first, second)
    _delete(ws, qtbot, [n.id for n in tree.path_to(second)][same + 1])
    assert len(ws.tree.leaves_under(ws.tree.root_id)) == 1

    window.actions_.compare_branches.trigger()
    assert ws.branch_compare is None, "no empty window opens"
    assert "Nothing to compare" in window.status_label.text()
    assert "Fork" in window.status_label.text()
