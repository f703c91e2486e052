"""The compare window's state lines follow the turn's past. (QA: with a turn's takes open in
Compare, choosing another take of the turn above changed where each of them leads — the
inspector's tiles said so — but the compare window kept the states of the old past under each
clip, beside a caption that now read "stale".)"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studio.core.commands import AddRerolledTake
from studio.core.model import new_id
from studio.core.state import StateDeltas
from studio.ui.inspector.takes_view import state_line
from tests.ui.conftest import generate_first_branch


def _expected_lines(tree, node_id: str, take_ids: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
    before = tree.state_before(node_id)
    return [state_line(tree.takes[t], before.apply(tree.takes[t].deltas)) for t in take_ids]


def _shown_lines(compare) -> list[str]:  # type: ignore[no-untyped-def]
    return [column.facts.text().split("<br>")[0] for column in compare.columns]


def test_choosing_a_take_above_updates_the_compared_states(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                          qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    project = session.project
    generate_first_branch(window, qtbot)
    branch = [n for n in ws.branch if not project.tree.nodes[n].is_root]
    above, turn = branch[0], branch[1]
    assert project.tree.acting_character(above) == project.tree.acting_character(turn)

    made = project.tree.selected_take(turn)
    assert made is not None
    project.apply(AddRerolledTake(replace(made, id=new_id(), seed=made.seed + 1,
                                          deltas=StateDeltas(stamina=2, social=-1, entertainment=1)), select=False))
    first = project.tree.selected_take(above)
    assert first is not None
    other = replace(first, id=new_id(), seed=first.seed + 1,
                    deltas=StateDeltas(stamina=-4, social=3, entertainment=-2))
    project.apply(AddRerolledTake(other, select=False))
    session.settle()
    qtbot.waitUntil(lambda: len(ws.tree.takes_of(turn)) == 2 and len(ws.tree.takes_of(above)) == 2, timeout=5000)

    ws.select(turn)
    compare = ws.compare_takes()
    assert compare is not None and len(compare.columns) == 2
    compared = [column.take.id for column in compare.columns]
    assert _shown_lines(compare) == _expected_lines(ws.tree, turn, compared)
    shown_before = _shown_lines(compare)

    ws.choose_take(above, other.id)  # the turn's past changes: where each take leads with it
    session.settle()
    qtbot.waitUntil(lambda: ws.tree.nodes[above].selected_take_id == other.id, timeout=5000)
    qtbot.waitUntil(lambda: all("stale" in column.caption.text() for column in compare.columns), timeout=5000)
    expected = _expected_lines(ws.tree, turn, compared)
    assert expected != shown_before
    assert _shown_lines(compare) == expected
