"""The turns folded on the canvas are written to the settings as they are folded (and
unfolded), not only when the project closes: a studio killed, or one that crashed, brought
back the folds of the last close and lost every fold made since it opened."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from studio.ui.settings import StudioSettings
from tests.ui.keys import press_story_key

REPO = Path(__file__).resolve().parents[2]

FOLD_THEN_DIE = """
import os, sys
from PySide6.QtWidgets import QApplication
from studio.composition import default_registry
from studio.ui.main_window import MainWindow
from studio.ui.settings import StudioSettings
from tests.ui.conftest import services_with

app = QApplication([])
window = MainWindow(StudioSettings.at(sys.argv[1]), services_with(default_registry()))
window.show()
app.processEvents()
assert window.open_project(sys.argv[2])
app.processEvents()
for turn in sys.argv[3:]:
    assert window.workspace.scene.toggle_fold(turn)
    app.processEvents()
sys.stdout.flush()
os._exit(0)  # as a crash or a kill: no close, nothing saved on the way out
"""


def _turns(window: Any) -> tuple[str, str]:
    """The sample story's two branches, after its second turn."""
    tree = window.workspace.tree
    second = tree.child_ids(tree.child_ids(tree.root_id)[0])[0]
    upper, lower = tree.child_ids(second)
    return str(upper), str(lower)


def _kept(settings: StudioSettings, project: Path) -> list[str]:
    """The folds the settings file holds now, read by another reader (as a new studio would)."""
    return StudioSettings.at(Path(settings.q.fileName())).folds(project)


def test_folds_made_before_a_crash_come_back(make_window, sample_project: Path, settings: StudioSettings,
                                             tmp_path: Path) -> None:
    window = make_window(sample_project)
    upper, lower = _turns(window)
    window.close_project("cancel")

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    log = tmp_path / "studio.log"
    with open(log, "w") as out:  # (a pipe would wait for the engine host the dead studio left behind)
        studio = subprocess.Popen([sys.executable, "-c", FOLD_THEN_DIE, settings.q.fileName(), str(sample_project),
                                   upper, lower], cwd=REPO, env=env, stdout=out, stderr=out, start_new_session=True)
        try:
            code = studio.wait(timeout=120)
        finally:
            try:  # what it left running goes with it
                os.killpg(studio.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert code == 0, log.read_text()[-3000:]

    assert sorted(_kept(settings, sample_project)) == sorted([upper, lower])
    assert window.open_project(sample_project), window.last_error
    assert window.workspace.scene.folded == {upper, lower}


def test_each_fold_and_unfold_is_kept_while_the_project_is_open(make_window, sample_project: Path,
                                                               settings: StudioSettings, qtbot) -> None:
    window = make_window(sample_project)
    upper, lower = _turns(window)
    assert _kept(settings, sample_project) == []

    window.workspace.select(upper)
    press_story_key(window, qtbot, Qt.Key.Key_Z)
    assert _kept(settings, sample_project) == [upper]
    window.workspace.select(lower)
    press_story_key(window, qtbot, Qt.Key.Key_Z)
    assert sorted(_kept(settings, sample_project)) == sorted([upper, lower])
    press_story_key(window, qtbot, Qt.Key.Key_Z)  # lower unfolded
    assert _kept(settings, sample_project) == [upper]
    window.workspace.scene.reveal(window.workspace.tree.leaves_under(upper)[0].id)  # a search or a jump opens it
    assert _kept(settings, sample_project) == []
