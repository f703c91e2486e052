"""Tab from the story tree goes to the inspector (as the README says), and the episode
preview's controls take Tab in the order they sit on screen (Loop after the slider)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget


def _window_on_a_turn(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.leaves_under(tree.root_id)[0].id)
    ws.view.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is ws.view, timeout=5000)
    qtbot.wait(50)  # the window settles (the panels join the Tab chain)
    return window


def _tab(qtbot, backward: bool = False) -> QWidget:  # type: ignore[no-untyped-def]
    focus = QApplication.focusWidget()
    assert focus is not None
    qtbot.keyClick(focus, Qt.Key.Key_Backtab if backward else Qt.Key.Key_Tab,
                   Qt.KeyboardModifier.ShiftModifier if backward else Qt.KeyboardModifier.NoModifier)
    after = QApplication.focusWidget()
    assert after is not None
    return after


def test_tab_from_the_tree_enters_the_inspector(make_window, sample_project: Path, qtbot) -> None:
    window = _window_on_a_turn(make_window, sample_project, qtbot)
    ws = window.workspace
    landed = _tab(qtbot)
    assert ws.inspector.isAncestorOf(landed), f"Tab from the tree went to {type(landed).__name__} " \
                                              f"{landed.accessibleName()!r}"
    assert not ws.episode.isAncestorOf(landed)
    back = _tab(qtbot, backward=True)
    assert back is ws.view  # Shift+Tab comes back to the tree


def test_the_episode_preview_takes_tab_left_to_right(make_window, sample_project: Path, qtbot) -> None:
    window = _window_on_a_turn(make_window, sample_project, qtbot)
    episode = window.workspace.episode
    player = episode.player
    assert not player.slider_on_own_line()
    player.play_button.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is player.play_button, timeout=5000)
    walked = [player.play_button]
    for _ in range(5):
        walked.append(_tab(qtbot))
    expected = [player.play_button, player.back_button, player.forward_button, player.slider,
                player.loop_button, episode.chart.mode_box]
    assert walked == expected, [w.accessibleName() for w in walked]
    lefts = [w.mapTo(window, w.rect().topLeft()).x() for w in walked[:5]]  # one row: left to right
    assert lefts == sorted(lefts)
