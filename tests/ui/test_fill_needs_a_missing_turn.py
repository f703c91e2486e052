""""Generate missing turns of the branch" is off when the branch has nothing missing: every turn
has a take or one on its way, or it has no turn at all (where it said "Every turn of this
branch has a take."), with a tooltip that says why."""

from __future__ import annotations

from pathlib import Path

from .conftest import generate_first_branch


def test_fill_is_off_for_a_branch_with_no_turns(make_window, tmp_path: Path) -> None:
    window = make_window()
    assert window.new_project(tmp_path / "empty.kamishibai")
    fill = window.actions_.fill
    assert not fill.isEnabled()
    assert "no turns yet" in fill.toolTip()


def test_fill_is_off_once_every_turn_has_a_take_or_one_coming(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session, fill = window.workspace, window.session, window.actions_.fill
    assert fill.isEnabled() and fill.toolTip() == "Generate missing turns of the branch"

    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    session.service.pause()  # the jobs wait in the queue
    fill.trigger()
    session.settle()
    qtbot.waitUntil(lambda: not fill.isEnabled(), timeout=5000)  # all on their way
    assert "on its way" in fill.toolTip()
    session.service.resume()

    generate_first_branch(window, qtbot)
    assert not fill.isEnabled(), "every turn of the branch has a take"
    other = tree.leaves_under(tree.root_id)[1].id  # the second branch: its own turns are missing
    ws.select(other, center=False)
    assert fill.isEnabled()
