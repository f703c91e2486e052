"""A project already open in one studio window, opened in a second window of the same
process: the window that has it comes to the front, and no read-only copy is opened.

The second window opened a read-only copy that said "…sample.kamishibai is already open
for writing in this process" (the storage's words) in its status bar and tooltips. Where a
read-only copy is still made (the project held here by something that is no window), the
reason says "This project is already open in another window".
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from studio.storage import Project
from studio.ui.session import OTHER_WINDOW, open_for_window


def test_the_window_that_has_it_comes_forward(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    first = make_window(sample_project)
    name = first.session.project.name
    second = make_window()  # active now: the user works in it
    assert QApplication.activeWindow() is second
    first.showMinimized()

    assert second.open_project(sample_project)

    assert second.session is None and second.workspace is None  # no second, read-only copy
    assert first.session is not None and first.session.read_only is None  # still open for editing
    qtbot.waitUntil(lambda: QApplication.activeWindow() is first, timeout=5000)
    assert not first.isMinimized()
    assert first.status_text() == f"{name} is already open in this window."
    assert second.status_text() == f"{name} is already open in another window; that window is brought to the front."
    assert "in this process" not in second.status_text()


def test_a_second_copy_is_refused_by_the_window_only_for_the_same_folder(  # type: ignore[no-untyped-def]
        make_window, sample_project: Path, tmp_path: Path) -> None:
    first = make_window(sample_project)
    other = Project.create(tmp_path / "other.kamishibai")
    other.close()
    second = make_window()
    assert second.open_project(tmp_path / "other.kamishibai")  # another project opens here as ever
    assert second.session is not None and second.session.read_only is None
    assert first.session is not None and first.session.project.path != second.session.project.path


def test_the_read_only_reason_names_the_other_window(sample_project: Path) -> None:
    holder = Project.open(sample_project)  # held for writing in this process
    try:
        project, reason = open_for_window(sample_project)
        try:
            assert reason is not None and reason.locked
            assert reason.why == OTHER_WINDOW == "This project is already open in another window"
            assert reason.line().startswith("Read-only: This project is already open in another window. Close it there")
            assert reason.off_tip() == "Read-only: This project is already open in another window"
            assert "in this process" not in reason.line()
        finally:
            project.close()
    finally:
        holder.close()
