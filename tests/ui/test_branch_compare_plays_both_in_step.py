"""Compare branches (Turn menu): the window opens on the branch the main window shows and the
branch that parts from it latest, says where they part, lists each branch's turns after the
parting with the state each leads to, and plays both branches in step from the parting."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu

from studio.core.sentence import describe_action
from studio.ui.node_summary import cut_to_chars
from studio.ui.palette import STAT_LABELS
from tests.ui.branch_compare_story import JOB_TIMEOUT_MS, generate_every_branch, parted_at


def _open(window, qtbot):  # type: ignore[no-untyped-def]
    window.actions_.compare_branches.trigger()
    compare = window.workspace.branch_compare
    assert compare is not None, window.status_label.text()
    qtbot.waitExposed(compare)
    compare.activateWindow()  # its keys work in the active window
    qtbot.waitUntil(lambda: QApplication.activeWindow() is compare, timeout=5000)
    return compare


def test_the_window_opens_on_the_shown_branch_and_the_nearest_other(make_window, sample_project: Path,
                                                                     qtbot) -> None:
    window = make_window(sample_project)
    first, second = generate_every_branch(window, qtbot)
    ws = window.workspace
    tree = ws.tree
    ws.select(second, center=False)  # the main window shows the second branch
    compare = _open(window, qtbot)

    assert compare.left.leaf == second and compare.right.leaf == first
    same = parted_at(tree, first, second)
    assert same >= 1
    said = "Turn 1 is the same" if same == 1 else f"Turns 1–{same} are the same"
    assert compare.parting.text() == f"{said}; they part after turn {same}."
    for column, leaf in ((compare.left, second), (compare.right, first)):
        action = describe_action(tree.node(leaf).instruction).rstrip(".")
        assert column.picker.currentText() == cut_to_chars(f"Turn {tree.depth(leaf)} · {action}", 70)
        after = [n.id for n in tree.path_to(leaf)][same + 1:]
        assert [row.number for row in column.rows] == [tree.depth(n) for n in after]
        for index, node_id in enumerate(after):
            text = column.turns.topLevelItem(index).text(1)
            assert describe_action(tree.node(node_id).instruction) in text
            state = tree.state_of(node_id)
            for name, value in state.as_dict().items():
                assert f"{STAT_LABELS[name]} {value}" in text
            assert tree.acting_character(node_id) in text
            tip = column.turns.topLevelItem(index).toolTip(1)
            assert tree.node(node_id).instruction.raw in tip
        clips = [ws._abs(tree.selected_take(n).clip_path) for n in after]
        assert column.player.paths == clips
        qtbot.waitUntil(lambda c=column: c.player.frame_count > 0, timeout=10_000)
    # every branch is in each picker, named by its last turn
    assert compare.left.picker.count() == len(tree.leaves_under(tree.root_id)) == 2
    # the menu names the window, and so does the card's menu
    assert window.actions_.compare_branches in window.menus["Turn"].actions()
    ws._context_menu(first, ws.view.mapToGlobal(ws.view.rect().center()))
    menus = [menu for menu in ws.findChildren(QMenu) if menu.isVisible()]
    assert menus and window.actions_.compare_branches in menus[-1].actions()
    menus[-1].close()
    compare.close()


def test_play_moves_both_branches_in_step_and_pause_stops_both(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    generate_every_branch(window, qtbot)
    compare = _open(window, qtbot)
    players = [c.player for c in compare.columns]
    qtbot.waitUntil(lambda: all(p.frame_count for p in players), timeout=10_000)
    assert compare.slider.maximum() == int(max(p.duration for p in players) * 1000)
    assert [p.frame for p in players] == [0, 0]

    qtbot.keyClick(compare, Qt.Key.Key_Space)  # Space plays
    assert compare.playing and compare.play_button.text() == "Pause"
    qtbot.waitUntil(lambda: all(p.frame >= 3 for p in players), timeout=10_000)
    qtbot.keyClick(compare, Qt.Key.Key_Space)
    assert not compare.playing
    frames = [p.frame for p in players]
    times = compare.times()
    step = 1 / compare.fps
    assert abs(times[0] - times[1]) < step, "both show the same moment from the parting"
    assert abs(times[0] - compare.position) < step
    qtbot.wait(400)
    assert [p.frame for p in players] == frames, "paused, neither moves"

    # past the shorter branch's end, it holds its last frame while the longer one plays on
    shorter, longer = sorted(players, key=lambda p: p.duration)
    if shorter.duration < longer.duration:
        compare.seek((shorter.duration + longer.duration) / 2)
        assert shorter.frame == shorter.frame_count - 1
        assert longer.frame < longer.frame_count - 1
    # the highlighted row is the turn being played
    compare.seek(0.0)
    for column in compare.columns:
        assert column.turns.currentItem() is column.turns.topLevelItem(0)
        assert column.turns.topLevelItem(0).font(1).bold()
    last = compare.left.player
    compare.seek(last.time_at(last.frame_count - 1))
    assert compare.left.turns.currentItem() is compare.left.turns.topLevelItem(len(compare.left.rows) - 1)

    # a turn clicked in a list: both go to the time that turn starts in its branch
    turns = compare.right.turns
    qtbot.mouseClick(turns.viewport(), Qt.MouseButton.LeftButton,
                     pos=turns.visualItemRect(turns.topLevelItem(1)).center())
    right = compare.right.player
    assert right.segment_index == 1 and compare.right.turns.currentItem() is turns.topLevelItem(1)
    assert right.time_at(right.frame) == compare.position > 0


def test_another_branch_picked_and_shown_in_the_main_window(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    first, second = generate_every_branch(window, qtbot)
    ws = window.workspace
    tree = ws.tree
    # a third branch: the first branch's last turn forked (no take yet)
    ws.select(first, center=False)
    ws.fork()
    qtbot.waitUntil(lambda: len(ws.tree.leaves_under(ws.tree.root_id)) == 3, timeout=JOB_TIMEOUT_MS)
    tree = ws.tree
    third = next(leaf.id for leaf in tree.leaves_under(tree.root_id) if leaf.id not in (first, second))
    ws.select(first, center=False)
    compare = _open(window, qtbot)
    assert compare.left.leaf == first and compare.right.leaf == third, "the fork parts from it latest"
    assert compare.right.picker.count() == 3
    depth = tree.depth(third)
    assert compare.parting.text() == f"Turns 1–{depth - 1} are the same; they part after turn {depth - 1}."
    assert len(compare.right.rows) == 1 and compare.right.player.paths == [""]  # no clip: the stand-in
    assert "not generated yet" in compare.right.turns.topLevelItem(0).text(1)
    qtbot.waitUntil(lambda: compare.right.player.frame_count > 0, timeout=5000)
    compare.seek(0.0)  # the turn without a clip says why in place of a picture
    assert compare.right.player.note == f"Turn {depth} is not generated yet"
    assert compare.right.player.view.message == compare.right.player.note

    compare.right.picker.setCurrentIndex(compare.right.picker.findData(second))
    assert compare.right.leaf == second
    same = parted_at(tree, first, second)
    after = [n.id for n in tree.path_to(second)][same + 1:]
    assert [row.number for row in compare.right.rows] == [tree.depth(n) for n in after]
    assert compare.right.player.paths == [ws._abs(tree.selected_take(n).clip_path) for n in after]
    assert len(compare.left.rows) == len([n.id for n in tree.path_to(first)]) - same - 1

    qtbot.mouseClick(compare.right.show_button, Qt.MouseButton.LeftButton)
    assert ws.current_id == second
    assert ws.branch[-1] == second
    assert compare.isVisible(), "the window stays open"
    compare.close()
