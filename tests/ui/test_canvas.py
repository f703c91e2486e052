"""The tree canvas: layout, cards, level of detail, zoom, navigation, search."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from studio.core.commands import AddTurn
from studio.ui.canvas.geometry import OVERVIEW_SCALE
from studio.ui.node_summary import CardStatus
from studio.ui.tree_layout import layout_tree


def test_layout_puts_time_right_and_alternatives_below() -> None:
    children = {"r": ["a", "b"], "a": ["c", "d"], "d": ["e"]}
    cells = layout_tree("r", lambda n: children.get(n, []))
    assert cells["r"].depth == 0 and cells["a"].depth == 1 and cells["e"].depth == 3
    assert cells["r"].row == cells["a"].row == cells["c"].row == 0  # the first branch is one straight line
    assert cells["d"].row == cells["e"].row == 1
    assert cells["b"].row == 2
    assert len({(c.depth, c.row) for c in cells.values()}) == len(cells)  # no two cards share a cell


def test_layout_of_10000_nodes_is_fast() -> None:
    import random
    import time

    rng = random.Random(3)
    children: dict[str, list[str]] = {"0": []}
    ids = ["0"]
    for index in range(1, 10_000):
        parent = rng.choice(ids[-30:])
        children.setdefault(parent, []).append(str(index))
        ids.append(str(index))
    start = time.perf_counter()
    cells = layout_tree("0", lambda n: children.get(n, []))
    assert len(cells) == 10_000
    assert time.perf_counter() - start < 0.5


def test_window_shows_one_card_per_node(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    scene = window.workspace.scene
    tree = window.session.project.tree
    assert set(scene.cells) == set(tree.nodes)
    assert len(scene.cells) == 9  # start + 8 turns
    window.workspace.view.fit_all()  # every card is in view, so every card exists
    assert set(scene.cards) == set(tree.nodes)
    assert scene.cards[tree.root_id].summary.status is CardStatus.START
    leaf = tree.leaves_under(tree.root_id)[0]
    assert scene.cards[leaf.id].summary.status is CardStatus.DRAFT
    assert scene.status(leaf.id) is CardStatus.DRAFT


def test_arrow_keys_move_through_the_tree(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.view.setFocus()
    assert ws.current_id == tree.root_id
    qtbot.keyClick(ws.view, Qt.Key.Key_Right)
    first = tree.child_ids(tree.root_id)[0]
    assert ws.current_id == first
    qtbot.keyClick(ws.view, Qt.Key.Key_Right)
    second = tree.child_ids(first)[0]
    assert ws.current_id == second
    # turn 2 has two alternatives below it: down to the second, up back to the first
    qtbot.keyClick(ws.view, Qt.Key.Key_Right)
    third_a, third_b = tree.child_ids(second)
    assert ws.current_id == third_a
    qtbot.keyClick(ws.view, Qt.Key.Key_Down)
    assert ws.current_id == third_b
    qtbot.keyClick(ws.view, Qt.Key.Key_Up)
    assert ws.current_id == third_a
    qtbot.keyClick(ws.view, Qt.Key.Key_Down)
    qtbot.keyClick(ws.view, Qt.Key.Key_Left)
    assert ws.current_id == second
    qtbot.keyClick(ws.view, Qt.Key.Key_Right)  # back to the alternative we came from
    assert ws.current_id == third_b
    assert ws.scene.cards[third_b].current
    assert ws.branch[-1] == tree.leaves_under(third_b)[0].id  # the strip shows that branch


def test_zoom_and_level_of_detail(make_window, sample_project: Path) -> None:
    window = make_window(sample_project)
    view = window.workspace.view
    view.set_zoom(1.0)
    view.zoom_in()
    assert view.zoom > 1.0
    view.set_zoom(OVERVIEW_SCALE / 2)
    assert window.workspace.scene.overview_on
    view.grab()  # paints the overview layer
    view.set_zoom((OVERVIEW_SCALE + 0.45) / 2)
    assert not window.workspace.scene.overview_on
    view.grab()  # simple cards
    view.fit_all()
    assert view.zoom <= 1.0


def test_search_highlights_and_jumps(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    window.actions_.find.trigger()
    assert ws.search.isVisible()
    qtbot.keyClicks(ws.search.edit, "broomstick")
    tree = window.session.project.tree
    hits = [n for n in tree.nodes.values() if "broomstick" in n.instruction.raw]
    assert len(ws.matches) == len(hits) == 2
    assert ws.current_id == ws.matches[0]
    assert all(ws.scene.cards[n].search_hit for n in ws.matches)
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Return)
    assert ws.current_id == ws.matches[1]
    qtbot.keyClick(ws.search.edit, Qt.Key.Key_Escape)
    assert not ws.search.isVisible()
    assert not any(card.search_hit for card in ws.scene.cards.values())


def test_cards_follow_document_changes(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    project = window.session.project
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: wave; Background: day beach."))
    qtbot.waitUntil(lambda: len(ws.scene.cells) == 10)
    window.actions_.undo.trigger()
    qtbot.waitUntil(lambda: len(ws.scene.cells) == 9)


def test_typing_in_the_search_field_does_not_trigger_story_shortcuts(make_window, sample_project: Path,
                                                                     qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    window.actions_.find.trigger()
    qtbot.keyClicks(ws.search.edit, "fly")
    node_count = len(window.session.project.tree.nodes)
    current = ws.current_id
    for key in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Delete,
                Qt.Key.Key_Space, Qt.Key.Key_R, Qt.Key.Key_F):
        qtbot.keyClick(ws.search.edit, key)
    assert ws.current_id == current
    assert len(window.session.project.tree.nodes) == node_count
    assert window.session.service.jobs() == []
