"""Two studios running at once (two processes) on one settings file: each keeps the file's
lists (recent projects, the turn each project was left at) as the other wrote them, rather
than write back the copy it read when it started (QA: the second window to open a project
dropped the project the first window had opened meanwhile from File › Open recent)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from studio.ui.settings import StudioSettings

REPO = Path(__file__).resolve().parents[2]


def _other_studio(settings_file: Path, script: str) -> None:
    """Run ``script`` in another process, with ``settings`` the studio's settings in
    ``settings_file``, as a second studio window would change them."""
    code = ("from pathlib import Path\nfrom studio.ui.settings import StudioSettings\n"
            f"settings = StudioSettings.at(Path({str(settings_file)!r}))\n{script}\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def _project(folder: Path) -> Path:
    from studio.composition import create_project

    project = create_project(folder)
    path = project.path
    project.close()
    return path


def test_a_project_the_other_studio_opened_stays_recent(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path) -> None:
    mine, theirs, later = (_project(tmp_path / f"{name}.kamishibai") for name in ("mine", "theirs", "later"))
    settings.add_recent(mine)
    window = make_window()  # the welcome page, listing ``mine``
    _other_studio(Path(settings.q.fileName()), f"settings.add_recent(Path({str(theirs)!r}))")
    assert window.open_project(later), window.last_error
    window.close_project("keep")
    on_file = StudioSettings.at(Path(settings.q.fileName()))
    assert on_file.present_projects() == [later, theirs, mine]
    assert [button.path for button in window.welcome.recent_buttons] == [later, theirs, mine]


def test_the_turn_the_other_studio_left_a_project_at_is_kept(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path) -> None:
    mine, theirs = _project(tmp_path / "mine.kamishibai"), _project(tmp_path / "theirs.kamishibai")
    window = make_window(mine)
    _other_studio(Path(settings.q.fileName()),
                  f"settings.set_last_selected(Path({str(theirs)!r}), 'turn-they-left')\n"
                  f"settings.remove_recent(Path({str(mine)!r}))")
    window.close_project("keep")  # remembers this window's turn of ``mine``
    on_file = StudioSettings.at(Path(settings.q.fileName()))
    assert on_file.last_selected(theirs) == "turn-they-left"
    assert on_file.last_selected(mine) is not None


def test_settings_shows_and_keeps_what_the_other_studio_saved(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path, monkeypatch) -> None:
    from studio.ui.dialogs.settings_dialog import SettingsDialog

    window = make_window()
    weights = tmp_path / "weights"
    weights.mkdir()
    _other_studio(Path(settings.q.fileName()),
                  f"settings.appearance = 'dark'\nsettings.checkpoints_folder = {str(weights)!r}\n"
                  "settings.auto_requeue = True\nsettings.q.sync()")
    shown: list[SettingsDialog] = []

    def change_one_and_press_ok(dialog: SettingsDialog) -> int:
        shown.append(dialog)
        dialog.reroll_selects.setChecked(True)  # the one setting changed in this window
        dialog._accept()
        return dialog.result()

    monkeypatch.setattr(SettingsDialog, "exec", change_one_and_press_ok)
    window.ask_settings()
    dialog = shown[0]
    assert dialog.appearance.currentData() == "dark" and dialog.checkpoints.text() == str(weights)
    assert dialog.auto_requeue.isChecked()
    on_file = StudioSettings.at(Path(settings.q.fileName()))
    assert (on_file.appearance, on_file.checkpoints_folder, on_file.auto_requeue, on_file.reroll_selects) == \
        ("dark", str(weights), True, True)
