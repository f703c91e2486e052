"""Tab walks the inspector in the order it reads, the widgets made for the shown turn included
(QA: the chips, the take tiles and the dialogue lines are made after the window, so Tab
reached them only after the queue and the cast docks; Tab from a new dialogue line jumped
out of the inspector instead of going on to Narration). The inspector answers Tab itself;
Qt's chain is left as it is (re-ordering it crashed the window once tiles were deleted)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui.conftest import generate_first_branch

JOB_TIMEOUT_MS = 120_000


def _tab(qtbot, times: int = 1) -> QWidget | None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        focus = QApplication.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
    return QApplication.focusWidget()


def test_tab_from_a_new_dialogue_line_goes_on_to_the_story_fields(make_window, sample_project: Path, qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    turn = next(n for n in ws.tree.nodes.values() if not n.is_root).id
    ws.select(turn)
    story = ws.inspector.story
    row = story.add_dialogue_line()
    qtbot.waitUntil(lambda: row.text.hasFocus() and row.remove.isVisible(), timeout=5000)
    qtbot.keyClicks(row.text, "I'm late!")
    assert _tab(qtbot) is row.remove
    assert _tab(qtbot) is story.add_line
    assert _tab(qtbot) is story.narration


def test_tab_reaches_the_chips_and_takes_right_after_the_instruction(make_window, sample_project: Path,
                                                                      qtbot) -> None:
    window = make_window(sample_project)
    ws = window.workspace
    leaf = generate_first_branch(window, qtbot, JOB_TIMEOUT_MS)
    ws.select(leaf)
    inspector = ws.inspector
    qtbot.waitUntil(lambda: bool(inspector.chips.buttons) and bool(inspector.takes.tiles), timeout=5000)
    from studio.ui.tab_order import widgets_in_reading_order

    order = widgets_in_reading_order(inspector.widget())
    last = [w for w in order if inspector.editor.isAncestorOf(w) and w.isVisible()][-1]  # Save text, Generate
    last.setFocus()
    qtbot.waitUntil(last.hasFocus, timeout=5000)
    assert _tab(qtbot) is inspector.chips.buttons[0]
    after_chips = _tab(qtbot, len(inspector.chips.buttons))
    assert after_chips is not None and inspector.takes.isAncestorOf(after_chips)
    # Tab goes on through the take's tile and reaches the story fields, not another dock
    reached = [_tab(qtbot) for _ in range(12)]
    assert inspector.story.add_line in reached
    assert all(w is not None and (inspector.isAncestorOf(w)) for w in reached[:reached.index(inspector.story.add_line)])


def test_shift_tab_walks_back_and_both_ends_lead_out_of_the_inspector(make_window, sample_project: Path,
                                                                       qtbot) -> None:
    from studio.ui.tab_order import widgets_in_reading_order

    window = make_window(sample_project)
    ws = window.workspace
    turn = next(n for n in ws.tree.nodes.values() if not n.is_root).id
    ws.select(turn)
    inspector = ws.inspector
    story = inspector.story
    story.narration.setFocus()
    qtbot.waitUntil(story.narration.hasFocus, timeout=5000)
    qtbot.keyClick(story.narration, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is story.add_line  # back the way Tab came
    order = [w for w in widgets_in_reading_order(inspector.widget()) if w.isVisible() and w.isEnabled()]
    order[-1].setFocus()
    qtbot.waitUntil(order[-1].hasFocus, timeout=5000)
    out = _tab(qtbot)
    assert out is not None and not inspector.isAncestorOf(out), "Tab at the inspector's end leaves it"
    order[0].setFocus()
    qtbot.waitUntil(order[0].hasFocus, timeout=5000)
    qtbot.keyClick(order[0], Qt.Key.Key_Backtab)
    back = QApplication.focusWidget()
    assert back is not None and not inspector.isAncestorOf(back), "Shift+Tab at its start leaves it too"
