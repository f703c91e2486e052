"""What a drop would not use is refused while it is dragged: the pointer says "no drop" and
the status bar says why; letting go changes nothing. The canvas takes no drop of its own.

A project's mp4 dragged onto the story canvas was taken (the pointer promised a drop) and
nothing happened, and nothing was said.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from studio.storage import Project
from studio.ui.file_drop import plan_drop
from tests.ui.drop_events import ACTIONS, drag_over, drop, files_mime, leave, point_on


def _kinds(tmp_path: Path) -> dict[str, Path]:
    clip = tmp_path / "takes" / "take-1.mp4"
    clip.parent.mkdir()
    clip.write_bytes(b"\x00\x00\x00\x18ftypisom" + bytes(16))
    picture = tmp_path / "qiqi.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(16))
    plain = tmp_path / "pictures"
    plain.mkdir()
    bundle = tmp_path / "story.zip"
    bundle.write_bytes(b"PK\x05\x06" + bytes(18))
    other = tmp_path / "notes.pdf"
    other.write_bytes(b"%PDF-1.4\n")
    return {"video": clip, "picture": picture, "folder that is no Kamishibai project": plain, "zip file": bundle,
            "can't be opened here": other}


@pytest.mark.parametrize("what", ["video", "picture", "folder that is no Kamishibai project", "zip file",
                                  "can't be opened here"])
def test_a_file_that_is_no_project_or_story_is_refused(make_window, sample_project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                      what: str) -> None:
    window = make_window(sample_project)
    path = _kinds(tmp_path)[what]
    before = sorted(p.name for p in tmp_path.rglob("*"))
    dock = window.inspector_dock  # on its title, not on a text box (text boxes take drops of their own)
    title = dock.mapTo(window, QPoint(dock.width() // 2, 4))
    for widget, at in ((window.workspace.view, point_on(window, window.workspace.view)),
                       (window.centralWidget(), point_on(window, window.centralWidget())), (dock, title)):
        try:
            assert not drag_over(window, at, files_mime(path)), widget  # "no drop" on the canvas as elsewhere
            reason = window.status_label.text()
        finally:
            leave(window)  # a drag is never left hanging over the window, whatever was found
        assert reason.startswith(path.name) and what in reason, reason
        assert "drop a .kamishibai project folder to open it, or a story file (.txt, .md, .csv)" in reason
        assert not drop(window, at, files_mime(path))
        assert window.status_label.text() == reason  # still says why after letting go
    assert window.session is not None and window.session.project.path == sample_project.resolve()
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing made


def test_several_files_are_refused(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    other = Project.create(tmp_path / "second.kamishibai")
    other.close()
    story = tmp_path / "story.txt"
    story.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    at = point_on(window, window.workspace.view)
    assert not drop(window, at, files_mime(other.path, story))
    assert window.status_label.text().startswith("Can't drop 2 things at once")
    assert not (tmp_path / "story.kamishibai").exists()
    assert window.session.project.path == sample_project.resolve()
    assert not drop(window, at, files_mime(urls=["https://example.com/story.txt"]))
    assert window.status_label.text().startswith("Only a file on this computer can be dropped here")


def test_the_canvas_takes_no_drop_itself(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    view = window.workspace.view
    assert not view.acceptDrops() and not view.viewport().acceptDrops()  # a drag over it goes to the window
    at = QPoint(view.viewport().rect().center())
    clip = files_mime(_kinds(tmp_path)["video"])
    enter = QDragEnterEvent(at, ACTIONS, clip, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)  # handed up to the window, which refuses it
    assert not enter.isAccepted()
    assert window.status_label.text().startswith("take-1.mp4 is a video")
    other = Project.create(tmp_path / "second.kamishibai")
    other.close()
    folder = files_mime(other.path)
    enter = QDragEnterEvent(at, ACTIONS, folder, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), enter)
    assert enter.isAccepted()  # by the window: a project is opened wherever it is dropped
    assert window.status_label.text() == "Drop to open second.kamishibai."
    # the canvas's own handlers take nothing, whatever is dragged
    for mime in (clip, folder):
        move = QDragMoveEvent(at, ACTIONS, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        view.dragMoveEvent(move)
        dropped = QDropEvent(QPointF(at), ACTIONS, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        view.dropEvent(dropped)
        assert not move.isAccepted() and not dropped.isAccepted()
    assert window.session.project.path == sample_project.resolve()


def test_what_a_drop_would_do_is_told_by_its_name(tmp_path: Path) -> None:
    project = tmp_path / "named otherwise"
    Project.create(tmp_path / "p.kamishibai").close()
    (tmp_path / "p.kamishibai").rename(project)  # a project folder without the suffix, told by its database
    assert plan_drop([project]).action == "open"
    assert plan_drop([project / "project.db"]).path == project
    for name in ("a.txt", "b.MD", "c.csv", "d.tsv", "e.markdown"):
        assert plan_drop([tmp_path / name]).action == "import", name
    assert plan_drop([tmp_path / "missing.kamishibai"]).action == "refuse"  # no such folder
