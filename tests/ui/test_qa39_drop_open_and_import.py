"""A project folder dropped on the window opens; a story file dropped on it is imported
into a new project beside it, which opens.

Dropped on the story canvas, both were taken by the canvas (the pointer said they could
be dropped) and nothing happened; dropped elsewhere on the window, nothing either.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from studio.storage import Project
from tests.ui.drop_events import drag_over, drop, files_mime, leave, point_on

SAMPLE_STORY = Path(__file__).resolve().parents[2] / "resources" / "samples" / "first_story.txt"


def _turns(path: Path) -> list[str]:
    """The instructions of a project's turns, read back from its folder."""
    project = Project.open(path, read_only=True)
    try:
        tree = project.tree
        return sorted(node.instruction.raw for node in tree.nodes.values() if node.id != tree.root_id)
    finally:
        project.close()


def test_a_project_folder_dropped_on_the_canvas_opens(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    other = Project.create(tmp_path / "second.kamishibai", name="Second")
    other.close()
    at = point_on(window, window.workspace.view)
    assert drag_over(window, at, files_mime(other.path))
    assert window.status_label.text() == "Drop to open second.kamishibai."
    leave(window)
    assert window.status_label.text().startswith("Opened")  # what it said before the drag

    assert drop(window, at, files_mime(other.path))
    assert window.session is not None and window.session.project.path == other.path.resolve()
    assert window.windowTitle().startswith("Second")
    assert window.status_label.text() == "Opened Second"


def test_a_story_file_dropped_is_imported_into_a_new_project(make_window, sample_project: Path,  # type: ignore[no-untyped-def]
                                                             tmp_path: Path) -> None:
    window = make_window(sample_project)
    folder = tmp_path / "stories"
    folder.mkdir()
    story = folder / "delivery.txt"
    shutil.copy(SAMPLE_STORY, story)
    at = point_on(window, window.workspace.view)
    assert drag_over(window, at, files_mime(story))
    assert window.status_label.text() == "Drop to import delivery.txt into a new project beside it."

    assert drop(window, at, files_mime(story))

    made = folder / "delivery.kamishibai"
    assert window.session is not None and window.session.project.path == made.resolve()
    assert window.status_label.text().startswith("Imported ") and "from delivery.txt into delivery.kamishibai" in \
        window.status_label.text()
    imported = _turns(made)
    lines = [line for line in SAMPLE_STORY.read_text(encoding="utf-8").splitlines() if line.startswith("Character:")]
    assert len(imported) == len(lines) and "Character: Qiqi; Motion: slowly walk; Background: sunset street." in \
        imported
    assert story.read_bytes() == SAMPLE_STORY.read_bytes()  # the story file is only read

    window.close_project("cancel")  # dropped again: a second project, the first left as it is
    assert drop(window, point_on(window, window.centralWidget()), files_mime(story))
    assert window.session is not None and window.session.project.path == (folder / "delivery 2.kamishibai").resolve()
    assert len(_turns(made)) == len(lines)


def test_a_story_with_a_bad_line_makes_no_project(make_window, sample_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    story = tmp_path / "broken.md"
    story.write_text("Character: Qiqi; Motion: run; Background: day town.\nCharacter: Qiqi; Motion: ; Background:\n",
                     encoding="utf-8")
    assert drop(window, point_on(window, window.workspace.view), files_mime(story))
    assert not (tmp_path / "broken.kamishibai").exists()
    assert window.session is not None and window.session.project.path == sample_project.resolve()  # still open
    assert window.last_error is not None and "broken.md" in window.last_error.message
    assert "line 2" in window.last_error.message


def test_a_story_dropped_on_the_welcome_page_opens_its_project(make_window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window = make_window()
    story = tmp_path / "table.csv"
    story.write_text("Character,Motion,Background\nQiqi,run,day town\nYuzu,wave,night bakery\n", encoding="utf-8")
    assert drop(window, point_on(window, window.centralWidget()), files_mime(story))
    assert window.session is not None
    assert _turns(tmp_path / "table.kamishibai") == ["Character: Qiqi; Motion: run; Background: day town",
                                                     "Character: Yuzu; Motion: wave; Background: night bakery"]
