"""A recent project whose whole folder is gone (a drive not connected) is not taken off the
recent list when clicked: it said "moved or deleted" and forgot it for good, so that it was
not offered again once the drive was back."""

from __future__ import annotations

from pathlib import Path

from studio.storage import Project


def test_a_project_on_a_drive_not_connected_stays_in_the_list(make_window, tmp_path: Path) -> None:
    drive = tmp_path / "usb"
    folder = drive / "trip.kamishibai"
    Project.create(folder).close()
    window = make_window()
    assert window.open_project(folder), window.last_error
    window.close_project("keep")
    drive.rename(tmp_path / "unplugged")
    errors: list[str] = []
    window.show_error = lambda error: errors.append(str(error))  # type: ignore[method-assign]
    assert not window.open_recent(folder)
    assert errors and "isn't there now" in errors[0] and "not connected" in errors[0], errors
    assert str(folder) in window.settings.recent_projects
    assert folder not in window.settings.present_projects()
    (tmp_path / "unplugged").rename(drive)
    assert folder in window.settings.present_projects()
    assert window.open_recent(folder), window.last_error
