"""On an 800x600 screen the Settings dialog and the compare window of three takes lie on
the screen, OK and Cancel in reach: the dialog opened about 660 pixels tall and the compare
window 990 wide, past the screen's edge. The screen here is a real 800x600 one (Qt's
offscreen platform set to that size), in a studio process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FRAME = (16, 48)
"""The room a window manager's frame and title bar take (the offscreen platform draws a
2-pixel border; a real title bar is taller)."""
SCREEN = {"screens": [{"name": "small", "x": 0, "y": 0, "width": 800, "height": 600,
                       "logicalDpiX": 96, "logicalDpiY": 96}]}

ON_A_SMALL_SCREEN = """
import json, sys, time
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QEvent, QPoint
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from studio.composition import default_registry
from studio.ui.dialogs.settings_dialog import SettingsDialog
from studio.ui.main_window import MainWindow
from studio.ui.settings import StudioSettings
from tests.ui.conftest import services_with

app = QApplication([])

def settle():
    end = time.monotonic() + 0.5
    while time.monotonic() < end:
        app.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)

def seen(window):
    box = window.findChild(QDialogButtonBox)
    buttons = [] if box is None else [
        [*b.mapToGlobal(QPoint(0, 0)).toTuple(), b.width(), b.height()] for b in box.buttons()]
    g, f = window.geometry(), window.frameGeometry()
    return {"size": [g.width(), g.height()], "frame": [f.x(), f.y(), f.width(), f.height()], "buttons": buttons,
            "wanted": window.sizeHint().toTuple()}

settings = StudioSettings.at(sys.argv[1])
settings.mark_first_run_done()
window = MainWindow(settings, services_with(default_registry()))
window.resize(800, 552)
window.show()
assert window.open_project(Path(sys.argv[2])), window.last_error
settle()
dialog = SettingsDialog(settings, default_registry(), window)
dialog.show()
settle()
facts = {"settings": seen(dialog)}
dialog.reject()
ws = window.workspace
ws.select(sys.argv[3], center=False)
ws.compare_takes()
settle()
from studio.ui.inspector.compare_window import CompareWindow
compare = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CompareWindow) and w.isVisible())
facts["compare"] = seen(compare)
facts["columns"] = len(compare.columns)
print(json.dumps(facts))
window.close_project("cancel")
window.close()
"""


def _inside(rect: list[int]) -> bool:
    x, y, width, height = rect
    return x >= 0 and y >= 0 and x + width <= 800 and y + height <= 600


def _fits(seen: dict[str, list[int]]) -> bool:
    """On the screen, and small enough to be with a real frame and title bar too."""
    width, height = seen["size"]
    return _inside(seen["frame"]) and width + FRAME[0] <= 800 and height + FRAME[1] <= 600


def test_settings_and_compare_fit_an_800x600_screen(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "tests" / "ui"))
    from screenshot_script import build_project  # the sample, generated; its turn 2 has three takes

    project = build_project(tmp_path)
    from studio.storage import Project

    opened = Project.open(project)
    try:
        tree = opened.tree
        turn = next(n for n in tree.nodes if len(tree.takes_of(n)) == 3)
    finally:
        opened.close()
    config = tmp_path / "screen.json"
    config.write_text(json.dumps(SCREEN))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
    done = subprocess.run([sys.executable, "-c", ON_A_SMALL_SCREEN, str(tmp_path / "settings.ini"), str(project),
                           turn], cwd=REPO, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    facts = json.loads(done.stdout.strip().splitlines()[-1])

    settings = facts["settings"]
    assert settings["wanted"][1] > 600, settings  # more than the screen holds: it had to fit
    assert _fits(settings), settings
    assert len(settings["buttons"]) == 2 and all(_inside(button) for button in settings["buttons"]), settings

    compare = facts["compare"]
    assert facts["columns"] == 3
    assert _fits(compare), compare
