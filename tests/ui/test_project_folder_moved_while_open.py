"""The project folder moved or deleted while the project is open (QA: nothing said so; the
window went on saying "Take ready" while the new take's clip went to a new folder where the
project used to be, and the moved project reopened with its clip missing)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


def _recording(window) -> list[str]:  # type: ignore[no-untyped-def]
    errors: list[str] = []
    window.show_error = lambda error: errors.append(getattr(error, "message", str(error)))  # type: ignore[method-assign]
    window.folder_watch.lost.disconnect()
    window.folder_watch.lost.connect(window.show_error)
    return errors


@pytest.mark.parametrize("how", ["moved", "deleted"])
def test_the_window_says_when_the_project_folder_goes(make_window, sample_project: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                      qtbot, how: str) -> None:
    window = make_window(sample_project)
    if how == "moved":
        shutil.move(str(sample_project), str(tmp_path / "elsewhere.kamishibai"))
    else:
        shutil.rmtree(sample_project)
    qtbot.waitUntil(lambda: window.last_error is not None, timeout=5000)  # the error box, by itself
    assert window.last_error.message == (f"The project folder {sample_project.name} was moved or deleted while "
                                         f"it was open (it was in {sample_project.parent}).")
    assert "open it where it is now" in window.last_error.hint
    errors = _recording(window)
    window.folder_watch.check()  # asked again (the window activated again): said once
    assert errors == []


def test_a_move_further_up_is_seen_when_the_window_is_active_again(make_window, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    from studio.composition import create_sample_project

    folder = tmp_path / "stories"
    create_sample_project(folder / "sample.kamishibai").close()
    window = make_window(folder / "sample.kamishibai")
    errors = _recording(window)
    folder.rename(tmp_path / "renamed stories")  # neither watched folder changes
    window.folder_watch.check()  # what activating the window does
    assert len(errors) == 1 and "moved or deleted" in errors[0]
    (tmp_path / "renamed stories").rename(folder)  # put back
    assert window.folder_watch.check()
    assert len(errors) == 1


def test_edits_in_place_say_nothing(make_window, sample_project: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = make_window(sample_project)
    errors = _recording(window)
    ws = window.workspace
    tree = window.session.project.tree
    ws.select(tree.child_ids(tree.root_id)[0])
    window.actions_.reroll.trigger()  # the folder's files change: still in place
    qtbot.waitUntil(lambda: not window.session.active_jobs(), timeout=60_000)
    qtbot.wait(200)
    assert window.folder_watch.check()
    assert errors == []
    window.close_project("keep")
    assert window.folder_watch is None
