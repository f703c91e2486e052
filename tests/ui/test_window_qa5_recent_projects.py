"""File › Open recent and the welcome page list each project once, however its path was
spelled in the settings file (QA: a trailing slash, a ``..`` and a link to the folder, as an
earlier version or a hand edit left them, listed one project three times)."""

from __future__ import annotations

import os
from pathlib import Path

from studio.ui.settings import StudioSettings


def _menu_entries(window) -> list[str]:  # type: ignore[no-untyped-def]
    window._fill_recent()
    return [action.toolTip() for action in window.recent_menu.actions()]


def test_one_project_spelled_three_ways_is_listed_once(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, sample_project: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.kamishibai"
    os.symlink(sample_project, link)
    other = tmp_path / "other"
    other.mkdir()
    settings.q.setValue("projects/recent", [f"{sample_project}/", str(link),
                                            str(other / ".." / sample_project.name), str(sample_project)])
    window = make_window()
    assert _menu_entries(window) == [str(sample_project)]
    assert [button.path for button in window.welcome.recent_buttons] == [sample_project]


def test_the_order_is_kept_and_a_reopened_project_moves_first(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path) -> None:
    from studio.composition import create_project

    paths = []
    for name in ("first", "second", "third"):
        project = create_project(tmp_path / f"{name}.kamishibai")
        paths.append(project.path)
        project.close()
    settings.q.setValue("projects/recent", [f"{paths[0]}/", str(paths[1]), str(paths[2]), str(paths[0])])
    window = make_window()
    assert _menu_entries(window) == [str(p) for p in paths]
    assert window.open_recent(Path(f"{paths[2]}/")), window.last_error
    assert _menu_entries(window) == [str(p) for p in (paths[2], paths[0], paths[1])]
