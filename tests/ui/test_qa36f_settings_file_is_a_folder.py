"""A folder where the settings file should be (a backup tool or a hand-made mistake): the
studio still opens, on its defaults, and says what that means and what to do, without
touching the folder (QA: it said only that the file "can't be read (Is a directory)",
not that nothing changed would be kept, nor how to fix it)."""

from __future__ import annotations

from pathlib import Path

from studio.ui.app_paths import AppPaths
from studio.ui.settings import StudioSettings

from .conftest import services_with


def test_the_window_opens_says_why_and_what_to_do_and_leaves_the_folder(  # type: ignore[no-untyped-def]
        qtbot, registry, private_user_folders: Path) -> None:
    from studio.ui.app import report_settings_resets
    from studio.ui.main_window import MainWindow

    paths = AppPaths.standard()
    paths.settings_file.mkdir(parents=True)
    kept = paths.settings_file / "notes.txt"
    kept.write_text("mine")
    settings = StudioSettings(paths=paths)
    window = MainWindow(settings, services_with(registry))
    qtbot.addWidget(window)
    window.show()
    report_settings_resets(window)
    assert window.welcome is not None  # it opened, on the welcome page
    error = window.last_error
    assert error is not None and str(paths.settings_file) in error.message
    for said in ("it is a folder", "changes made now are not kept", "Move or rename that folder"):
        assert said in error.message
    settings.add_recent(private_user_folders / "story.kamishibai")
    assert "could not be saved" in settings.write_problem()  # as said: the change is not kept
    assert paths.settings_file.is_dir() and kept.read_text() == "mine"
