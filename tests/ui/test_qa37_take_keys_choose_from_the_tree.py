"""Keys 1 to 9, with the story tree focused, choose take 1 to 9 of the selected turn as the
inspector numbers them: the same command (and undo step) as the take's "Use this take"
button, said in the Turn menu, the tiles' tooltips and the F1 sheet. Before, a take was
chosen from the keyboard only by Tab to its button and Space, and no key was shown for it.

Real window, real project, real takes from the sketch engine; what was chosen is read back
from the project's SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

from studio.ui.dialogs.cheat_sheet import cheat_sheet_html
from studio.ui.window_actions import TAKE_KEYS
from tests.ui.conftest import generate_first_branch
from tests.ui.rerolled_takes import leaf_with_two_takes

DIGITS = [Qt.Key.Key_0, Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4, Qt.Key.Key_5, Qt.Key.Key_6,
          Qt.Key.Key_7, Qt.Key.Key_8, Qt.Key.Key_9]


def _chosen_in_file(project: Path, node_id: str) -> str | None:
    """The turn's chosen take as the project's database holds it (not the window's tree)."""
    database = sqlite3.connect(project / "project.db")
    try:
        row = database.execute("SELECT selected_take_id FROM nodes WHERE id = ?", (node_id,)).fetchone()
    finally:
        database.close()
    assert row is not None, f"no turn {node_id} in the file"
    return row[0]


def _focus_tree(ws, qtbot):  # type: ignore[no-untyped-def]
    ws.view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    return ws.view


def _number_of(ws, take_id: str) -> int:  # type: ignore[no-untyped-def]
    """The take's number as the inspector shows it ("Take 2")."""
    tile = next(t for t in ws.inspector.takes.tiles if t.take.id == take_id)
    assert tile.caption.text().startswith(f"Take {tile.index + 1}")
    return tile.index + 1


def test_a_digit_in_the_tree_chooses_that_take_and_ctrl_z_takes_it_back(make_window, sample_project: Path,
                                                                       qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, session, leaf, other = leaf_with_two_takes(make_window, sample_project, qtbot)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    first = _chosen_in_file(sample_project, leaf)
    assert first is not None and first != other.id
    messages: list[str] = []
    ws.message.connect(messages.append)
    number = _number_of(ws, other.id)

    view = _focus_tree(ws, qtbot)
    qtbot.keyClick(view, DIGITS[number])
    qtbot.waitUntil(lambda: _chosen_in_file(sample_project, leaf) == other.id, timeout=10_000)
    session.settle()
    qtbot.waitUntil(lambda: any(t.selected and t.take.id == other.id for t in ws.inspector.takes.tiles),
                    timeout=5000)

    qtbot.keyClick(_focus_tree(ws, qtbot), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one undo step
    qtbot.waitUntil(lambda: _chosen_in_file(sample_project, leaf) == first, timeout=10_000)
    session.settle()

    turn = session.project.tree.depth(leaf)
    messages.clear()
    qtbot.keyClick(_focus_tree(ws, qtbot), Qt.Key.Key_3)  # no third take: said, nothing changes
    qtbot.waitUntil(lambda: f"Turn {turn} has 2 takes." in messages, timeout=5000)
    chosen_number = _number_of(ws, first)
    qtbot.keyClick(view, DIGITS[chosen_number])  # the chosen one: said too
    qtbot.waitUntil(lambda: f"Take {chosen_number} is already the chosen take of turn {turn}." in messages,
                    timeout=5000)
    qtbot.wait(200)
    assert _chosen_in_file(sample_project, leaf) == first


def test_digits_typed_in_text_fields_stay_digits(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, _session, leaf, other = leaf_with_two_takes(make_window, sample_project, qtbot)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    first = _chosen_in_file(sample_project, leaf)
    number = _number_of(ws, other.id)

    field = ws.inspector.editor.motion  # the instruction editor
    field.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(field.hasFocus, timeout=5000)
    field.end(False)
    before = field.text()
    qtbot.keyClick(field, DIGITS[number])
    assert field.text() == before + str(number)

    ws.open_search()  # the search bar, in the story area itself
    search = ws.search.edit
    qtbot.waitUntil(search.hasFocus, timeout=5000)
    qtbot.keyClick(search, DIGITS[number])
    assert search.text().endswith(str(number))
    qtbot.wait(300)
    assert _chosen_in_file(sample_project, leaf) == first


def test_the_keys_are_shown_in_the_menu_the_tiles_and_the_sheet(make_window, sample_project: Path,
                                                                 qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, _session, _leaf, _other = leaf_with_two_takes(make_window, sample_project, qtbot)
    window = ws.window()
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)

    turn_menu = window.menus["Turn"]
    entry = next(a for a in turn_menu.actions() if a.text().replace("&", "") == "Choose take")
    submenu = entry.menu()
    assert isinstance(submenu, QMenu)
    shown = [(a.text().replace("&", ""), a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
             for a in submenu.actions()]
    assert shown == [(f"Take {n}", str(n)) for n in range(1, TAKE_KEYS + 1)]

    for tile in ws.inspector.takes.tiles:
        if not tile.selected:
            assert f"key {tile.index + 1} in the story tree" in tile.use_button.toolTip()

    sheet = cheat_sheet_html(window.actions_.groups)
    assert "<b>1 – 9</b>" in sheet and "Choose take 1–9 of the selected turn" in sheet


def test_the_key_makes_the_stale_turns_offer_as_the_button_does(make_window, sample_project: Path,
                                                                qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    generate_first_branch(window, qtbot)
    second = ws.branch[2]
    ws.select(second)
    window.actions_.reroll.trigger()  # a second take of turn 2, kept beside the chosen one
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2 and not session.active_jobs(), timeout=60_000)
    session.settle()
    chosen = session.project.tree.nodes[second].selected_take_id
    other = next(tile for tile in ws.inspector.takes.tiles if tile.take.id != chosen)
    asked: list[int] = []
    window.ask_stale = lambda count: asked.append(count) or "use"  # type: ignore[method-assign]

    qtbot.keyClick(_focus_tree(ws, qtbot), DIGITS[other.index + 1])
    qtbot.waitUntil(lambda: _chosen_in_file(sample_project, second) == other.take.id, timeout=10_000)
    assert asked == [len(ws.branch) - 3]  # turns 3 to the end would follow another past


def test_a_number_with_no_take_to_use_says_why() -> None:
    from studio.core.model import Take, TakeStatus
    from studio.ui.window_actions import take_to_choose

    done = Take("t1", "n", "sketch", clip_path="clips/t1.mp4")
    failed = Take("t2", "n", "sketch", status=TakeStatus.FAILED, error="out of memory")
    running = Take("t3", "n", "sketch", status=TakeStatus.RUNNING)
    cancelled = Take("t4", "n", "sketch", status=TakeStatus.CANCELLED)
    unchosen = Take("t5", "n", "sketch", clip_path="clips/t5.mp4")
    takes = [done, failed, running, cancelled, unchosen]
    assert take_to_choose(takes, "t1", 5, 3) == (unchosen, "")
    assert take_to_choose(takes, "t1", 1, 3) == (None, "Take 1 is already the chosen take of turn 3.")
    assert take_to_choose(takes, "t1", 2, 3) == (None, "Take 2 of turn 3 failed: there is nothing to use.")
    assert take_to_choose(takes, "t1", 3, 3) == (None, "Take 3 of turn 3 is not finished yet: there is nothing to use.")
    assert take_to_choose(takes, "t1", 4, 3) == (None, "Take 4 of turn 3 was cancelled: there is nothing to use.")
    assert take_to_choose(takes, "t1", 6, 3) == (None, "Turn 3 has 5 takes.")
    assert take_to_choose([done], "t1", 2, 1) == (None, "Turn 1 has 1 take.")
    assert take_to_choose([], None, 1, 2) == (None, "Turn 2 has no takes yet.")
