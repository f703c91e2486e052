"""Every control a screen reader reaches has a name it can say, and every icon-only button a
tooltip: the welcome page, the window on a story with takes (the inspector's fields, the
start values, a dialogue line, the take tiles, the cast lists, the find bar, the queue), the
compare-takes window and the dialogs (settings, export, a new character, reference views,
the shortcuts).

Before, a screen reader said "button" for the queue's, the find bar's and the bookmark's
icon buttons, "spin box" for each start value and export size, "list" for the cast lists,
and read a drop-down's current choice ("4") as if it were its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.ui.dialogs.export_dialog import ExportDialog
from studio.ui.player import Player
from tests.ui.conftest import open_export_dialog
from tests.ui.rerolled_takes import reroll_until
from tests.ui.unnamed_controls import unnamed_controls


def test_every_control_of_the_welcome_page_has_a_name(make_window) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    assert window.welcome is not None
    assert unnamed_controls(window) == []


def _window_with_takes(make_window, sample_project: Path, qtbot):  # type: ignore[no-untyped-def]
    """The window on the sample, the first branch's last turn re-rolled to two takes and shown."""
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    tree = session.project.tree
    leaf = tree.leaves_under(tree.root_id)[0].id
    ws.select(leaf, center=False)
    reroll_until(ws, session, qtbot, leaf, 2)
    qtbot.waitUntil(lambda: len(ws.inspector.takes.tiles) == 2, timeout=10_000)
    return window


def test_every_control_of_the_window_and_its_dialogs_has_a_name(make_window, sample_project: Path, qtbot,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    window = _window_with_takes(make_window, sample_project, qtbot)
    ws = window.workspace
    ws.search.open_bar()
    tree = ws.project.tree
    spoken = next(node.id for node in tree.nodes.values() if node.story.dialogue)
    ws.select(spoken, center=False)
    qtbot.waitUntil(lambda: bool(ws.inspector.story.rows), timeout=5000)  # a dialogue line's fields
    found = {"window": unnamed_controls(window, leave_out=(Player,))}
    ws.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    compare = ws.compare_takes()
    assert compare is not None
    found["compare takes"] = unnamed_controls(compare, leave_out=(Player,))
    export = open_export_dialog(window, monkeypatch)
    assert isinstance(export, ExportDialog)
    found["export"] = unnamed_controls(export)

    from studio.ui.cast_panel import CharacterDialog
    from studio.ui.dialogs.reference_views import ReferenceViewsDialog
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    dialogs = {"settings": SettingsDialog(window.settings, window.registry, window),
               "new character": CharacterDialog(ws.cast),
               "reference views": ReferenceViewsDialog("Qiqi", [None] * 4, ws.cast),
               "shortcuts": window.show_cheat_sheet()}
    for title, dialog in dialogs.items():
        qtbot.addWidget(dialog)
        found[title] = unnamed_controls(dialog)
    assert {title: lines for title, lines in found.items() if lines} == {}


def test_the_players_controls_and_the_branch_comparison_have_names(make_window, sample_project: Path,
                                                                    qtbot) -> None:
    window = _window_with_takes(make_window, sample_project, qtbot)
    found = unnamed_controls(window, only_in=(Player,))
    branches = window.workspace.compare_branches()
    assert branches is not None
    found += unnamed_controls(branches)
    assert found == []


def test_each_take_buttons_name_says_which_take(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The take tiles' and the compare window's Use buttons read "Use" (or "✓") alike in
    every tile: their names say which take, also in tiles too narrow for the words."""
    window = _window_with_takes(make_window, sample_project, qtbot)
    ws = window.workspace
    tiles = ws.inspector.takes.tiles
    for tile in tiles:  # as narrow as a tile gets: the shortest wordings ("Use", "✓")
        tile.use_button.setFixedWidth(24)
        tile.fit_button_text()
    names = [tile.use_button.accessibleName() for tile in tiles]
    chosen = [tile.selected for tile in tiles]
    assert names == [f"Take {i} is the chosen take" if sel else f"Use take {i}"
                     for i, sel in enumerate(chosen, start=1)], names
    assert "✓" in [tile.use_button.text() for tile in tiles]
    compare = ws.compare_takes()
    assert compare is not None
    assert sorted(column.use_button.accessibleName() for column in compare.columns) == sorted(names)
