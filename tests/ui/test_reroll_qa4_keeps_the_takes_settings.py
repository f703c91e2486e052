"""Re-roll in the window is made with the settings Settings shows, whatever the take was made
with. (The command line's re-roll keeps the take's settings and replaces only those given with
``--setting``; the window gave only the values changed from the engine's defaults, so under
that rule a take made at 160 x 112 came back at 160 x 112 after Settings was put back to the
engine's 720 x 480, though Settings showed 720 x 480.)"""

from __future__ import annotations

from pathlib import Path

from tests.ui.rerolled_takes import JOB_TIMEOUT_MS, done_with_clips


def test_reroll_uses_the_settings_the_window_shows(make_window, sample_project: Path, qtbot,  # type: ignore[no-untyped-def]
                                                   settings) -> None:
    window = make_window(sample_project)
    ws, session = window.workspace, window.session
    first = session.project.tree.child_ids(session.project.tree.root_id)[0]
    ws.reroll(first)  # made with the window's small sketch settings (160 x 112, 6 frames)
    qtbot.waitUntil(lambda: len(done_with_clips(session, first)) == 1, timeout=JOB_TIMEOUT_MS)
    settings.set_engine_values("sketch", {"frames": 4})  # Settings: the size back to the default, 4 frames
    defaults = session.registry.info("sketch").settings.defaults()
    ws.reroll(first)
    qtbot.waitUntil(lambda: len(done_with_clips(session, first)) == 2, timeout=JOB_TIMEOUT_MS)
    made, again = sorted(done_with_clips(session, first), key=lambda take: take.created_at)
    assert (made.settings["width"], made.settings["height"], made.settings["frames"]) == (160, 112, 6)
    assert (again.settings["width"], again.settings["height"], again.settings["frames"]) == (
        defaults.value("width"), defaults.value("height"), 4)
