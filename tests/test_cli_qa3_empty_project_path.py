"""An empty project path is refused, not read as the current folder.

QA: `kamishibai say "$P" NODE "Hi"` with ``P`` unset passed an empty path, which was read as
the current folder: run inside a project folder, it changed that project (exit status 0); run
elsewhere, the error named "." (". is not a Kamishibai project"), not the empty argument."""

from __future__ import annotations

from pathlib import Path

import pytest
from demo_project import import_demo_project  # tests/ is on sys.path

from studio.cli import main
from studio.storage import Project


def _first_turn(path: Path) -> str:
    with Project.open(path, read_only=True) as project:
        return project.tree.child_ids(project.tree.root_id)[0]


def test_an_empty_path_inside_a_project_folder_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = import_demo_project(tmp_path, monkeypatch)
    turn = _first_turn(path)
    monkeypatch.chdir(path)
    capsys.readouterr()
    for command in (["say", "", turn, "Hi!"], ["narrate", " ", turn, "Morning."], ["tree", ""], ["info", ""]):
        assert main(command) == 2, command
        out, err = capsys.readouterr()
        assert out == "" and "The project path is empty" in err, (command, out, err)
    with Project.open(path, read_only=True) as project:
        story = project.tree.node(turn).story
        assert story.dialogue == () and story.narration == ""
    assert main(["tree", "."]) == 0  # the current folder, said so, is still a project path


def test_an_empty_path_elsewhere_is_named_as_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    demo = tmp_path / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day town.\n", encoding="utf-8")
    for command in (["info", ""], ["import-demo", str(demo), "--project", ""]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "The project path is empty" in err and "'.'" not in err and ". is not" not in err, err
    assert list(tmp_path.iterdir()) == [demo]  # no project made
