"""A turn with more takes than Compare shows (four): the take clicked in the inspector is one
of those compared, beside the chosen one. Compare showed the chosen take and the three
newest whatever was clicked, so an older take could never be compared with the chosen one."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import generate_first_branch
from tests.ui.rerolled_takes import reroll_until

TAKES = 7


def test_compare_shows_the_clicked_take_beside_the_chosen_one(make_window, sample_project, qtbot) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    generate_first_branch(window, qtbot)
    tree = session.project.tree
    turn = tree.child_ids(tree.root_id)[0]  # later turns follow it: a re-roll keeps its first take chosen
    ws.select(turn, center=False)
    reroll_until(ws, session, qtbot, turn, TAKES)
    takes = ws.inspector.takes
    qtbot.waitUntil(lambda: len(takes.tiles) == TAKES)
    order = [take.id for take in session.project.tree.takes_of(turn)]
    assert session.project.tree.node(turn).selected_take_id == order[0]

    second = takes.tiles[1]
    takes.scroll_to(second)
    qtbot.waitUntil(second.isVisible)
    qtbot.mouseClick(second.caption, Qt.MouseButton.LeftButton)  # the tile clicked, as the user does
    compare = ws.compare_takes()
    assert compare is not None
    numbers = [column.number for column in compare.columns]
    assert 2 in numbers, f"compared takes {numbers}: not the clicked take 2"
    assert 1 in numbers and len(numbers) == 4

    # another take chosen in the window: the clicked take stays among the columns
    newest = next(column for column in compare.columns if column.number == TAKES)
    newest.use_button.click()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.node(turn).selected_take_id == order[-1])
    qtbot.waitUntil(lambda: any(column.selected and column.number == TAKES for column in compare.columns))
    assert 2 in [column.number for column in compare.columns]
    compare.close()

    # the click belongs to the turn it was made on: back from another turn, Compare is as before
    ws.select(session.project.tree.child_ids(turn)[0], center=False)
    qtbot.waitUntil(lambda: len(takes.tiles) == 1)
    ws.select(turn, center=False)
    qtbot.waitUntil(lambda: len(takes.tiles) == TAKES)
    again = ws.compare_takes()
    assert again is not None
    assert [column.number for column in again.columns] == [TAKES - 3, TAKES - 2, TAKES - 1, TAKES]
    again.close()
