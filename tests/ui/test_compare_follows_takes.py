"""The compare window follows its turn: a take finished while it is open joins the others
(three columns become four), and the chosen take stays marked."""

from __future__ import annotations

from pathlib import Path

from tests.ui.rerolled_takes import done_with_clips, reroll_until


def test_a_take_added_while_the_compare_window_is_open_joins_it(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    reroll_until(ws, session, qtbot, leaf, 3)
    compare = ws.compare_takes()
    assert compare is not None and len(compare.columns) == 3
    selected = session.project.tree.node(leaf).selected_take_id

    reroll_until(ws, session, qtbot, leaf, 4)
    qtbot.waitUntil(lambda: len(compare.columns) == 4, timeout=5000)
    takes = done_with_clips(session, leaf)
    assert [c.take.id for c in compare.columns] == [t.id for t in takes]
    assert [c.number for c in compare.columns] == [1, 2, 3, 4]
    marked = [c.take.id for c in compare.columns if c.caption.text().find("selected") >= 0]
    assert marked == [session.project.tree.node(leaf).selected_take_id]
    assert ws.compare_window is compare and compare.isVisible()
    qtbot.waitUntil(lambda: compare.frame_count > 0, timeout=10_000)
    compare.play()
    assert compare.playing

    ws.choose_take(leaf, selected)  # chosen elsewhere: the window follows
    session.settle()
    qtbot.waitUntil(lambda: [c.take.id for c in compare.columns if "selected" in c.caption.text()] == [selected],
                    timeout=5000)
    assert len(compare.columns) == 4
