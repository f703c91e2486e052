"""Quitting while the window waits for the queue to open another project (QA: answered
"Finish them" again, the window stayed open and, once the queue was done, opened the other
project, as if Quit had never been asked): the quit replaces the pending open."""

from __future__ import annotations

from pathlib import Path

from studio.composition import create_sample_project
from studio.ui.settings import StudioSettings

JOB_TIMEOUT_MS = 120_000


def test_quit_after_finish_them_closes_instead_of_opening_the_other_project(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, sample_project: Path, qtbot, tmp_path: Path) -> None:
    other = create_sample_project(tmp_path / "other.kamishibai")
    other_path = other.path
    other.close()
    window = make_window(sample_project)
    tree = window.session.project.tree
    window.workspace.select(tree.leaves_under(tree.root_id)[0].id, center=False)
    window.session.service.pause()
    window.actions_.fill.trigger()
    qtbot.waitUntil(lambda: window.session.tracker.active_count() > 0, timeout=10_000)
    window.ask_close_policy = lambda count: "finish"
    assert not window.open_project(other_path)  # opens once the queue is done...
    window.close()  # ...but the user quits, and finishes the queue first again
    assert window.isVisible() and "before closing" in window.status_label.text()
    window.session.service.resume()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=JOB_TIMEOUT_MS)
    qtbot.wait(100)
    assert window.session is None
    assert other_path.resolve() not in [p.resolve() for p in settings.present_projects()]  # never opened
