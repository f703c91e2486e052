"""A start value being typed survives a change of the cast: the Start panel rebuilt its grid
when a character was added, removed or renamed (from the cast panel, or by an undo) while
the author was typing a value, and the typing was lost (the rebuilt box showed the saved
value, and a renamed character's box lost the focus as well)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSpinBox

from studio.core.commands import AddCastMember, RemoveCastMember, RenameCastMember, SetStateScope
from studio.core.model import CastMember
from studio.core.state import StateScope


def _wait_for_the_redraw(ws, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: not ws._refresh_timer.isActive() and not ws._inspector_timer.isActive(), timeout=5000)
    qtbot.wait(20)


def _start_shown(window, qtbot):  # type: ignore[no-untyped-def]
    ws = window.workspace
    ws.select(window.session.project.tree.root_id)
    start = ws.inspector.start
    qtbot.waitUntil(lambda: bool(start.spins) and start.isVisible(), timeout=5000)
    return start


def _type_without_leaving(qtbot, spin: QSpinBox, text: str) -> None:  # type: ignore[no-untyped-def]
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus, timeout=5000)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, text)


def _member_id(tree, name: str) -> str:  # type: ignore[no-untyped-def]
    return next(m.id for m in tree.cast.values() if m.name == name)


def _apply(window, qtbot, command) -> None:  # type: ignore[no-untyped-def]
    window.workspace.apply(command)
    window.session.settle()
    _wait_for_the_redraw(window.workspace, qtbot)


def _typed_then_mika_added(window, qtbot, stat: str, typed: str):  # type: ignore[no-untyped-def]
    """The first character's ``stat`` start value typed without leaving the box, then a
    character added to the cast; the start panel and the typed character's id."""
    start = _start_shown(window, qtbot)
    name = next(iter(start.spins))
    _type_without_leaving(qtbot, start.spins[name][stat], typed)
    _apply(window, qtbot, AddCastMember(CastMember(id="mika", name="Mika")))
    return start, name


def test_a_character_added_while_typing_keeps_the_typed_value(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    start, name = _typed_then_mika_added(window, qtbot, "stamina", "85")
    qtbot.waitUntil(lambda: "Mika" in start.spins, timeout=5000)

    stamina = start.spins[name]["stamina"]
    assert stamina.lineEdit().text() == "85", "the value being typed was lost when the cast changed"
    assert stamina.hasFocus()
    qtbot.keyClick(stamina, Qt.Key.Key_Tab)
    window.session.settle()
    qtbot.waitUntil(lambda: window.session.project.tree.start_state_of(name).stamina == 85, timeout=5000)


def test_typing_half_done_is_not_saved_by_the_rebuild(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Typing 7 on the way to 75: the rebuild must not save 7 as an undo step of its own."""
    window = make_window(sample_project)
    start, name = _typed_then_mika_added(window, qtbot, "social", "7")
    assert window.session.project.tree.start_state_of(name).social == 50
    qtbot.keyClicks(start.spins[name]["social"], "5")
    qtbot.keyClick(start.spins[name]["social"], Qt.Key.Key_Tab)
    window.session.settle()
    qtbot.waitUntil(lambda: window.session.project.tree.start_state_of(name).social == 75, timeout=5000)


def test_a_rename_while_typing_carries_the_value_to_the_renamed_row(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                                    qtbot) -> None:
    window = make_window(sample_project)
    start = _start_shown(window, qtbot)
    name = next(iter(start.spins))
    _type_without_leaving(qtbot, start.spins[name]["entertainment"], "20")

    _apply(window, qtbot, RenameCastMember(_member_id(window.session.project.tree, name), "Renamed One"))
    qtbot.waitUntil(lambda: "Renamed One" in start.spins, timeout=5000)

    box = start.spins["Renamed One"]["entertainment"]
    assert box.lineEdit().text() == "20"
    assert box.hasFocus(), "the renamed character's box lost the keyboard focus"
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    window.session.settle()
    qtbot.waitUntil(lambda: window.session.project.tree.start_state_of("Renamed One").entertainment == 20,
                    timeout=5000)


def test_the_character_removed_while_typing_takes_its_box_away(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    start = _start_shown(window, qtbot)
    names = list(start.spins)
    assert len(names) >= 2
    removed, other = names[0], names[1]
    before = window.session.project.tree.start_state_of(other)
    _type_without_leaving(qtbot, start.spins[removed]["stamina"], "9")

    _apply(window, qtbot, RemoveCastMember(_member_id(window.session.project.tree, removed)))
    qtbot.waitUntil(lambda: removed not in start.spins, timeout=5000)

    focus = QApplication.focusWidget()
    assert not any(focus is box or (focus is not None and box.isAncestorOf(focus))
                   for boxes in start.spins.values() for box in boxes.values()), \
        "the removed character's typing went on in another character's box"
    qtbot.keyClicks(start, "5")
    window.session.settle()
    assert window.session.project.tree.start_state_of(other) == before


def test_a_shared_state_box_keeps_its_typing_when_the_cast_changes(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    _apply(window, qtbot, SetStateScope(StateScope.BRANCH))
    start = _start_shown(window, qtbot)
    assert list(start.spins) == [""]
    _type_without_leaving(qtbot, start.spins[""]["stamina"], "35")

    _apply(window, qtbot, AddCastMember(CastMember(id="mika", name="Mika")))
    qtbot.waitUntil(lambda: "Mika" in start.summary.text(), timeout=5000)

    box = start.spins[""]["stamina"]
    assert box.lineEdit().text() == "35" and box.hasFocus()
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    window.session.settle()
    qtbot.waitUntil(lambda: window.session.project.tree.start_state_of("").stamina == 35, timeout=5000)
