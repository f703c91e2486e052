"""Keys 1-9 choose take N only where the focus is on the story tree or a widget that types
nothing; a digit pressed in a widget that uses digits goes to that widget.

Before, a digit pressed on the branch player's focused slider chose that take of the
selected turn (the take keys are bound to the story area, which holds the player), and so it
did in any spin box there. Now the slider jumps to that tenth of the branch (as common video
players do), a spin box takes the digit, and the take stays as it was.

Real window, real takes from the sketch engine; the chosen take is read back from the
project's SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox

from tests.ui.rerolled_takes import leaf_with_two_takes

DIGITS = [getattr(Qt.Key, f"Key_{n}") for n in range(10)]


def _chosen_in_file(project: Path, node_id: str) -> str | None:
    database = sqlite3.connect(f"file:{project / 'project.db'}?mode=ro", uri=True)
    try:
        row = database.execute("SELECT selected_take_id FROM nodes WHERE id = ?", (node_id,)).fetchone()
    finally:
        database.close()
    assert row is not None
    return row[0]


def _number_of(ws, take_id: str) -> int:  # type: ignore[no-untyped-def]
    return next(t.index + 1 for t in ws.inspector.takes.tiles if t.take.id == take_id)


def test_digits_on_the_players_slider_move_it_and_choose_no_take(make_window, sample_project: Path,
                                                                   qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, session, leaf, other = leaf_with_two_takes(make_window, sample_project, qtbot)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    first = _chosen_in_file(sample_project, leaf)
    number = _number_of(ws, other.id)
    player = ws.episode.player
    qtbot.waitUntil(lambda: player.slider.maximum() > 0, timeout=10_000)
    slider = player.slider

    slider.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(slider.hasFocus, timeout=5000)
    slider.setValue(0)
    qtbot.keyClick(slider, DIGITS[number])
    assert slider.value() == round(slider.maximum() * number / 10)
    qtbot.keyClick(slider, DIGITS[0])  # 0: back to the start
    assert slider.value() == 0
    session.settle()
    qtbot.wait(300)
    assert _chosen_in_file(sample_project, leaf) == first

    # in the tree the same key chooses the take
    ws.view.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(ws.view.hasFocus, timeout=5000)
    qtbot.keyClick(ws.view, DIGITS[number])
    qtbot.waitUntil(lambda: _chosen_in_file(sample_project, leaf) == other.id, timeout=10_000)


def test_a_spin_box_in_the_story_area_keeps_its_digits(make_window, sample_project: Path,
                                                       qtbot) -> None:  # type: ignore[no-untyped-def]
    ws, session, leaf, other = leaf_with_two_takes(make_window, sample_project, qtbot)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    first = _chosen_in_file(sample_project, leaf)
    number = _number_of(ws, other.id)
    spin = QSpinBox(ws.episode)  # a number field in the story area, where the take keys answer
    spin.setRange(0, 99)
    spin.show()
    spin.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(spin.hasFocus, timeout=5000)
    spin.lineEdit().selectAll()
    qtbot.keyClick(spin, DIGITS[number])
    assert spin.value() == number
    session.settle()
    qtbot.wait(300)
    assert _chosen_in_file(sample_project, leaf) == first

    # a button there types nothing: the take key still answers on it
    button = ws.episode.player.play_button
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(button.hasFocus, timeout=5000)
    qtbot.keyClick(button, DIGITS[number])
    qtbot.waitUntil(lambda: _chosen_in_file(sample_project, leaf) == other.id, timeout=10_000)
