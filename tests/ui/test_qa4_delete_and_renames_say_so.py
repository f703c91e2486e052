"""A delete (confirmed), a rename or a removal in the cast panel says in the status bar what it
did and that Undo brings it back, as Fork and Re-roll do. Before, the status bar kept the last
message ("Redo Bookmark"), and the author had no word that the action had happened."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

TIMEOUT_MS = 5_000


def _window_after_a_redo(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """A window whose status bar says "Redo Bookmark" (an earlier action's word)."""
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0], center=False)
    ws.toggle_bookmark()
    session.settle()
    ws.undo()
    session.settle()
    ws.redo()
    session.settle()
    qtbot.waitUntil(lambda: window.status_label.text() == "Redo Bookmark", timeout=TIMEOUT_MS)
    return window


def _settle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window.session.settle()
    qtbot.waitUntil(lambda: not any(window.session.edits_in_flight.values()), timeout=TIMEOUT_MS)


def test_a_confirmed_delete_says_what_went_and_how_to_bring_it_back(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window = _window_after_a_redo(make_window, sample_project, qtbot)
    ws, project = window.workspace, window.session.project
    asked: list[str] = []
    window.confirm = lambda _title, text: asked.append(text) or True  # type: ignore[method-assign]
    tree = project.tree
    turn = tree.child_ids(tree.root_id)[0]
    below = len(list(tree.descendants(turn)))
    ws.select(turn, center=False)
    ws.view.setFocus()
    qtbot.waitUntil(ws.view.hasFocus, timeout=TIMEOUT_MS)
    qtbot.keyClick(ws.view, Qt.Key.Key_Delete)
    assert asked, "a turn with turns below it is deleted only after a question"
    _settle(window, qtbot)
    assert turn not in project.tree.nodes
    assert window.status_label.text() == (f"Deleted turn 1 and the {below} turns below it. "
                                          "Undo (Ctrl+Z) brings them back.")

    ws.view.setFocus()
    qtbot.keyClick(ws.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    _settle(window, qtbot)
    assert turn in project.tree.nodes, "the message's Ctrl+Z brings the turns back"


def test_a_lone_turn_deleted_says_it(make_window, sample_project: Path, qtbot) -> None:
    window = _window_after_a_redo(make_window, sample_project, qtbot)
    ws, project = window.workspace, window.session.project
    leaf = project.tree.leaves_under(project.tree.root_id)[0]
    depth = project.tree.depth(leaf.id)
    ws.select(leaf.id, center=False)
    window.actions_.delete.trigger()
    _settle(window, qtbot)
    assert leaf.id not in project.tree.nodes
    assert window.status_label.text() == f"Deleted turn {depth}. Undo (Ctrl+Z) brings it back."


def _select(widget, name: str) -> None:  # type: ignore[no-untyped-def]
    for row in range(widget.count()):
        if widget.item(row).text() == name:
            widget.setCurrentRow(row)
            return
    raise AssertionError(f"no {name!r} in the panel")


def test_renaming_a_character_says_so(make_window, sample_project: Path, qtbot) -> None:
    window = _window_after_a_redo(make_window, sample_project, qtbot)
    ws, project = window.workspace, window.session.project
    member = next(m for m in project.tree.cast.values() if m.name == "Yuzu")
    ws.cast.ask_name = lambda current: "Yuzuha "
    _select(ws.cast.characters, "Yuzu")
    ws.cast.rename_selected()
    _settle(window, qtbot)
    assert project.tree.cast[member.id].name == "Yuzuha"
    text = window.status_label.text()
    assert text.startswith("Renamed the character Yuzu to Yuzuha in the cast and in "), text
    assert text.endswith(" turns. Undo (Ctrl+Z) takes the rename back."), text


def test_renaming_and_removing_a_location_say_so(make_window, sample_project: Path, qtbot) -> None:
    window = _window_after_a_redo(make_window, sample_project, qtbot)
    ws, project = window.workspace, window.session.project
    ws.cast.ask_location_name = lambda current: "corner bakery"
    _select(ws.cast.locations, "bakery")
    ws.cast.rename_selected_location()
    _settle(window, qtbot)
    assert window.status_label.text() == ("Renamed the location bakery to corner bakery in the cast and in 1 turn. "
                                          "Undo (Ctrl+Z) takes the rename back.")

    _select(ws.cast.locations, "garden")  # no turn names it: removed without a question
    ws.cast.locations.setFocus()
    qtbot.waitUntil(ws.cast.locations.hasFocus, timeout=TIMEOUT_MS)
    qtbot.keyClick(ws.cast.locations, Qt.Key.Key_Delete)
    _settle(window, qtbot)
    assert all(loc.name != "garden" for loc in project.tree.locations.values())
    assert window.status_label.text() == "Removed the location garden. Undo (Ctrl+Z) brings it back."
