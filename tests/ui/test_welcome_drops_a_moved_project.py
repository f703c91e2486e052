"""A recent project moved away after the welcome page listed it: clicking it says so and the
page stops listing it (the settings already did)."""

from __future__ import annotations

import shutil
from pathlib import Path


def test_the_page_stops_listing_a_recent_project_that_was_moved(make_window, sample_project: Path,
                                                                  tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    other = tmp_path / "other.kamishibai"
    shutil.copytree(sample_project, other)
    window.settings.add_recent(other)
    window.settings.add_recent(sample_project)
    page = window.show_welcome()
    assert [button.path.name for button in page.recent_buttons] == ["sample.kamishibai", "other.kamishibai"]
    shutil.move(other, tmp_path / "elsewhere.kamishibai")
    errors: list[str] = []
    window.show_error = lambda error: errors.append(str(error))  # type: ignore[method-assign]
    next(button for button in page.recent_buttons if button.path == other).click()
    assert errors and "moved or deleted" in errors[0]
    assert window.welcome is not None and window.centralWidget() is window.welcome
    assert [button.path.name for button in window.welcome.recent_buttons] == ["sample.kamishibai"]
    window.welcome.recent_buttons[0].click()  # the rest of the page still works
    assert window.session is not None and window.session.project.path.name == "sample.kamishibai"
