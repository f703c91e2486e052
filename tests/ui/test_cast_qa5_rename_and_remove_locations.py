"""The cast panel's locations can be renamed (right-click › Rename…) and removed (right-click ›
Remove location, or Delete): before, a location added by mistake or named wrong stayed for
good. A rename rewrites the turns that name the place (asking first), and both undo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

TIMEOUT_MS = 5_000


def _select_location(panel, name: str) -> None:  # type: ignore[no-untyped-def]
    for row in range(panel.locations.count()):
        if panel.locations.item(row).text() == name:
            panel.locations.setCurrentRow(row)
            return
    raise AssertionError(f"no location {name!r} in the panel")


def _place_names(window) -> set[str]:  # type: ignore[no-untyped-def]
    return {loc.name for loc in window.session.project.tree.locations.values()}


def test_rename_a_location_rewrites_its_turns_and_undoes(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    asked: list[str] = []
    ws.cast.confirm = lambda _title, text: asked.append(text) or True
    ws.cast.ask_location_name = lambda current: f"Yuzu's {current} shop"
    _select_location(ws.cast, "bakery")
    ws.cast.rename_selected_location()
    session.settle()
    qtbot.waitUntil(lambda: "Yuzu's bakery shop" in _place_names(window), timeout=TIMEOUT_MS)
    raws = [n.instruction.raw for n in session.project.tree.nodes.values()]
    assert "Character: Yuzu; Motion: happily wave; Background: day Yuzu's bakery shop." in raws
    assert not any("bakery." in raw for raw in raws)
    assert asked and "1 turn names it" in asked[0]
    window.actions_.undo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: "bakery" in _place_names(window), timeout=TIMEOUT_MS)
    assert "Character: Yuzu; Motion: happily wave; Background: day bakery." in [
        n.instruction.raw for n in session.project.tree.nodes.values()]


def test_delete_removes_a_location_and_undo_brings_it_back(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    panel = ws.cast
    panel.locations.setFocus()
    qtbot.waitUntil(panel.locations.hasFocus, timeout=TIMEOUT_MS)
    _select_location(panel, "garden")  # no turn names it: removed without a question
    panel.confirm = lambda _title, _text: (_ for _ in ()).throw(AssertionError("asked"))
    qtbot.keyClick(panel.locations, Qt.Key.Key_Delete)
    session.settle()
    qtbot.waitUntil(lambda: "garden" not in _place_names(window), timeout=TIMEOUT_MS)
    assert all(panel.locations.item(row).text() != "garden" for row in range(panel.locations.count()))
    window.actions_.undo.trigger()
    session.settle()
    qtbot.waitUntil(lambda: "garden" in _place_names(window), timeout=TIMEOUT_MS)


def test_a_rename_to_a_characters_name_is_refused(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    errors = []
    ws.error.connect(errors.append)
    ws.cast.ask_location_name = lambda _current: "QIQI"
    _select_location(ws.cast, "park")
    ws.cast.rename_selected_location()
    session.settle()
    assert errors and "Qiqi" in errors[0].message, errors
    assert "park" in _place_names(window)
