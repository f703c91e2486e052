"""The recent projects as a user builds them over days, by opening and closing projects in
the window: one project opened through a link and through its folder, names in Japanese,
with an emoji or very long, a project renamed or deleted, one on a drive that was unplugged
and plugged in again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from studio.ui.settings import StudioSettings


def _project(folder: Path) -> Path:
    from studio.composition import create_project

    project = create_project(folder)
    path = project.path
    project.close()
    return path


def _listed(window) -> list[Path]:  # type: ignore[no-untyped-def]
    window._fill_recent()
    menu = [Path(action.toolTip()) for action in window.recent_menu.actions() if action.toolTip()]
    page = [button.path for button in window.welcome.recent_buttons]
    assert [p.resolve() for p in menu] == [p.resolve() for p in page]
    return page


def test_a_project_opened_through_a_link_and_its_folder_is_listed_once(  # type: ignore[no-untyped-def]
        make_window, tmp_path: Path) -> None:
    story, other = _project(tmp_path / "story.kamishibai"), _project(tmp_path / "other.kamishibai")
    link = tmp_path / "desktop-link.kamishibai"
    os.symlink(story, link)
    window = make_window()
    for path in (link, other, story):
        assert window.open_project(path), window.last_error
        window.close_project("keep")
    assert [p.resolve() for p in _listed(window)] == [story, other]


def test_names_in_any_script_and_of_any_length_come_back_as_written(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path) -> None:
    names = ["紙芝居の物語", "Qiqi 🎬🦊 first delivery", "長" * 70 + "🎬"]
    paths = [_project(tmp_path / f"{name}.kamishibai") for name in names]
    window = make_window()
    for path in paths:
        assert window.open_project(path), window.last_error
        window.close_project("keep")
    assert _listed(window) == paths[::-1]
    assert [button.name for button in window.welcome.recent_buttons] == names[::-1]
    again = StudioSettings.at(Path(settings.q.fileName()))  # the next day's start
    assert again.present_projects() == paths[::-1] and again.file_problem == ""


def test_renamed_deleted_and_unplugged_projects(  # type: ignore[no-untyped-def]
        make_window, settings: StudioSettings, tmp_path: Path) -> None:
    drive = tmp_path / "usb"
    drive.mkdir()
    kept, renamed, deleted = (_project(tmp_path / f"{name}.kamishibai") for name in ("kept", "renamed", "deleted"))
    on_drive = _project(drive / "trip.kamishibai")
    window = make_window()
    for path in (on_drive, deleted, renamed, kept):
        assert window.open_project(path), window.last_error
        window.close_project("keep")
    renamed.rename(tmp_path / "renamed again.kamishibai")
    shutil.rmtree(deleted)
    drive.rename(tmp_path / "unplugged")  # the drive's mount point is gone
    window.show_welcome()
    assert _listed(window) == [kept]
    (tmp_path / "unplugged").rename(drive)  # plugged in again: listed again, in its place
    window.show_welcome()
    assert _listed(window) == [kept, on_drive]
    assert window.open_recent(on_drive), window.last_error
    window.close_project("keep")
    assert _listed(window) == [on_drive, kept]
