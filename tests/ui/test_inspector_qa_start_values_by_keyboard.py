"""Typing the start state with the keyboard: a value, Tab, the next value, Tab... Saving the
first value rebuilt every box of the Start panel, so the box Tab had just moved to was
deleted: the keyboard focus went nowhere, and the next value typed was lost. And a value
undone soon after it was saved stayed in its box: the panel compared the document with
what it had last been shown, not with what its boxes held."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox

from studio.core.state import CharacterState


def _type_value(qtbot, spin: QSpinBox, text: str) -> None:  # type: ignore[no-untyped-def]
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Tab)


def _wait_for_the_redraw(ws, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Until the inspector has been redrawn from the last change (and the widgets it let go of
    are deleted)."""
    qtbot.waitUntil(lambda: not ws._refresh_timer.isActive() and not ws._inspector_timer.isActive(), timeout=5000)
    qtbot.wait(20)


def _stamina_box_focused(ws, qtbot):  # type: ignore[no-untyped-def]
    """The Start card selected and its first character's stamina box given the focus:
    (the Start panel, that character's name, the box)."""
    ws.select(ws.session.project.tree.root_id)
    start = ws.inspector.start
    qtbot.waitUntil(lambda: bool(start.spins) and start.isVisible(), timeout=5000)
    name = next(iter(start.spins))
    stamina = start.spins[name]["stamina"]
    stamina.setFocus()
    qtbot.waitUntil(stamina.hasFocus, timeout=5000)
    return start, name, stamina


def test_tab_through_the_start_values_keeps_the_focus_and_every_value(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                      qtbot) -> None:
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    start, name, stamina = _stamina_box_focused(ws, qtbot)

    _type_value(qtbot, stamina, "100")
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.start_state_of(name).stamina == 100, timeout=5000)
    _wait_for_the_redraw(ws, qtbot)
    social = start.spins[name]["social"]
    assert social.hasFocus(), "the focus left the Start panel once the first value was saved"

    _type_value(qtbot, social, "0")
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.start_state_of(name)
                    == CharacterState(stamina=100, social=0, entertainment=50), timeout=5000)
    assert start.spins[name]["entertainment"].hasFocus()


def test_an_undo_shows_in_the_box_that_has_the_focus(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    session, ws = window.session, window.workspace
    start, name, stamina = _stamina_box_focused(ws, qtbot)
    _type_value(qtbot, stamina, "75")
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.start_state_of(name).stamina == 75, timeout=5000)

    qtbot.waitUntil(window.actions_.undo.isEnabled, timeout=5000)
    assert start.spins[name]["social"].hasFocus()
    window.actions_.undo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: session.project.tree.start_state_of(name).stamina == 50, timeout=5000)
    qtbot.waitUntil(lambda: start.spins[name]["stamina"].value() == 50, timeout=5000)
