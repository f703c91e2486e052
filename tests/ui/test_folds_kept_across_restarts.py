"""The turns folded on the canvas are folded again when the project is opened after the studio
was closed and started again: the app's settings keep them per project, beside the selected
turn. A fold of a turn deleted meanwhile is dropped without a word, and a kept selected turn
that a kept fold would hide is shown (the fold over it opens)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from studio.core.commands import DeleteSubtree
from studio.storage.project import Project
from studio.ui.settings import MAX_PLACES, StudioSettings
from tests.ui.keys import press_story_key

REPO = Path(__file__).resolve().parents[2]

REOPEN = """
import json, sys
from PySide6.QtWidgets import QApplication
from studio.composition import default_registry
from studio.ui.main_window import MainWindow
from studio.ui.settings import StudioSettings
from tests.ui.conftest import services_with

app = QApplication([])
settings = StudioSettings.at(sys.argv[1])
window = MainWindow(settings, services_with(default_registry()))
window.confirm = lambda title, text: True
window.show()
app.processEvents()
opened = window.open_project(sys.argv[2])
app.processEvents()
ws, scene = window.workspace, window.workspace.scene
seen = {"opened": opened, "error": window.last_error.message if window.last_error else None,
        "folded": sorted(scene.folded), "cells": sorted(scene.cells), "current": ws.current_id,
        "hidden": {n: scene.hidden_count(n) for n in scene.folded},
        "cards": {n: card.hidden for n, card in scene.cards.items() if card.folded}}
window.close()  # as the user quits: the project closes and the folds are kept again
app.processEvents()
print(json.dumps(seen))
"""


def _in_a_new_studio(settings_file: Path, project: Path) -> dict[str, Any]:
    """Start the studio again in a process of its own (nothing of this one's memory), open
    ``project`` there, and say what its canvas shows; the studio is then quit."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", REOPEN, str(settings_file), str(project)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _turns(window: Any) -> tuple[str, str, str, str]:
    """The sample story: start → first → second → (upper → … → leaf, lower → …)."""
    tree = window.workspace.tree
    second = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    upper, lower = tree.child_ids(second)
    return second, upper, lower, tree.leaves_under(upper)[0].id


def _fold(window: Any, qtbot: Any, node_id: str) -> None:
    window.workspace.select(node_id)
    press_story_key(window, qtbot, Qt.Key.Key_Z)
    assert window.workspace.scene.is_folded(node_id)


def _below(window: Any, node_id: str) -> set[str]:
    return {n.id for n in window.workspace.tree.descendants(node_id)}


def _delete_elsewhere(project: Path, node_id: str) -> None:
    """Delete the turn and those after it, as another studio does while this one has the project closed."""
    opened = Project.open(project)
    try:
        opened.apply(DeleteSubtree(node_id))
    finally:
        opened.close()


def _both_branches_folded(make_window: Any, sample_project: Path, qtbot: Any) -> tuple[Any, str, str, str, str]:
    """A window on the sample with both branches after its second turn folded: (window, second,
    upper, lower, the upper branch's last turn)."""
    window = make_window(sample_project)
    second, upper, lower, leaf = _turns(window)
    _fold(window, qtbot, upper)
    _fold(window, qtbot, lower)
    return window, second, upper, lower, leaf


def test_folds_come_back_after_the_studio_is_quit_and_started_again(make_window, sample_project: Path,
                                                                     settings: StudioSettings, qtbot) -> None:
    window, second, upper, lower, _ = _both_branches_folded(make_window, sample_project, qtbot)
    hidden = _below(window, upper) | _below(window, lower)
    shown = set(window.workspace.scene.cells)
    counts = {upper: len(_below(window, upper)), lower: len(_below(window, lower))}
    window.workspace.select(second)
    window.close()  # quit: the window's own close, which closes the project
    assert window.session is None

    seen = _in_a_new_studio(Path(settings.q.fileName()), sample_project)
    assert seen["opened"] and seen["error"] is None
    assert seen["folded"] == sorted([upper, lower])
    assert set(seen["cells"]) == shown and not hidden & set(seen["cells"])  # the layout closed up over them
    assert seen["hidden"] == counts and seen["cards"] == counts  # each card says how many it hides
    assert seen["current"] == second


def test_a_fold_undone_before_quitting_is_not_brought_back(make_window, sample_project: Path,
                                                           settings: StudioSettings, qtbot) -> None:
    window, _, upper, lower, _ = _both_branches_folded(make_window, sample_project, qtbot)
    press_story_key(window, qtbot, Qt.Key.Key_Z)  # lower unfolded again
    assert not window.workspace.scene.is_folded(lower)
    window.close()

    seen = _in_a_new_studio(Path(settings.q.fileName()), sample_project)
    assert seen["folded"] == [upper]
    assert lower in seen["cells"]


def _after(window: Any, node_id: str) -> str:
    return str(window.workspace.tree.child_ids(node_id)[0])


def test_a_fold_of_a_turn_deleted_meanwhile_is_dropped_without_a_word(make_window, sample_project: Path,
                                                                      settings: StudioSettings, qtbot) -> None:
    window = make_window(sample_project)
    second, upper, lower, _ = _turns(window)
    upper_next, lower_next = _after(window, upper), _after(window, lower)  # each hides the turn after it
    _fold(window, qtbot, upper_next)
    _fold(window, qtbot, lower_next)
    window.workspace.select(second)
    window.close()
    _delete_elsewhere(sample_project, lower_next)  # another studio deletes a folded turn meanwhile

    seen = _in_a_new_studio(Path(settings.q.fileName()), sample_project)
    assert seen["opened"] and seen["error"] is None  # nothing said of the fold that went
    assert seen["folded"] == [upper_next] and lower_next not in seen["cells"]
    assert seen["current"] == second
    assert StudioSettings.at(Path(settings.q.fileName())).folds(sample_project) == [upper_next]  # quit again


def test_a_kept_selected_turn_under_a_kept_fold_opens_that_fold(make_window, sample_project: Path,
                                                                 settings: StudioSettings, qtbot) -> None:
    window, _, _, lower, leaf = _both_branches_folded(make_window, sample_project, qtbot)
    window.close()
    settings.set_last_selected(sample_project, leaf)  # selected last in another studio, under the upper fold

    seen = _in_a_new_studio(Path(settings.q.fileName()), sample_project)
    assert seen["opened"] and seen["error"] is None
    assert seen["current"] == leaf and leaf in seen["cells"]  # the selected turn is never folded away
    assert seen["folded"] == [lower]  # the other fold stays


def test_reopening_in_the_same_window_after_a_delete_keeps_the_other_folds(make_window, sample_project: Path,
                                                                           settings: StudioSettings,
                                                                           qtbot) -> None:
    window, second, upper, lower, _ = _both_branches_folded(make_window, sample_project, qtbot)
    window.workspace.select(second)
    assert window.close_project("keep")
    _delete_elsewhere(sample_project, lower)
    assert window.open_project(sample_project), window.last_error
    scene = window.workspace.scene
    assert scene.folded == {upper} and not _below(window, upper) & set(scene.cells)
    assert window.last_error is None
    assert window.close_project("keep")
    assert settings.folds(sample_project) == [upper]


def test_the_settings_keep_the_folds_of_recent_projects_only(tmp_path: Path) -> None:
    settings = StudioSettings.at(tmp_path / "settings.ini")
    first = tmp_path / "first.kamishibai"
    settings.set_folds(first, {"b", "a"})
    assert StudioSettings.at(tmp_path / "settings.ini").folds(tmp_path / "." / "first.kamishibai") == ["a", "b"]
    for index in range(MAX_PLACES):
        settings.set_folds(tmp_path / f"p{index}.kamishibai", [str(index)])
    assert settings.folds(first) == []  # the oldest went
    settings.set_folds(tmp_path / "p0.kamishibai", [])  # nothing folded: the project's place is given up
    assert settings.folds(tmp_path / "p0.kamishibai") == []
    assert settings.folds(tmp_path / "p1.kamishibai") == ["1"]
    settings.q.setValue("projects/folds", "not json")
    assert settings.folds(first) == []
    settings.q.setValue("projects/folds", json.dumps([["x", "not a list"], [1, ["a"]]]))
    assert settings.folds(Path("x")) == []


def test_a_copy_saved_opens_folded_as_the_original_was(make_window, sample_project: Path, tmp_path: Path,
                                                        qtbot) -> None:
    window = make_window(sample_project)
    _, upper, lower, _ = _turns(window)
    _fold(window, qtbot, lower)
    window.workspace.select(upper)
    folder = tmp_path / "copies" / "mine.kamishibai"
    assert window.save_copy_to(tmp_path / "copies" / "mine"), window.last_error
    qtbot.waitUntil(lambda: window.session is not None and window.session.path == folder, timeout=60_000)
    scene = window.workspace.scene
    assert scene.folded == {lower} and not _below(window, lower) & set(scene.cells)
    assert window.workspace.current_id == upper
    assert window.last_error is None
