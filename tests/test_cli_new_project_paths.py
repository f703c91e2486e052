"""`kamishibai new` (and `import-demo` into a new project) with paths a user may well type.
QA: `new x.KAMISHIBAI` made `x.KAMISHIBAI.kamishibai`; `new a/../b` left an empty folder
`a` behind; `new` on a folder that holds other files advised "open it instead", which
cannot work (only a project opens)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main


def test_a_suffix_in_capitals_is_refused_with_the_right_name(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    asked = tmp_path / "x.KAMISHIBAI"
    assert main(["new", str(asked)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "project folders end in .kamishibai" in err, err
    assert f"hint: Give {tmp_path / 'x.kamishibai'}." in err, err
    assert list(tmp_path.iterdir()) == [], "nothing is made"


def test_import_demo_refuses_a_suffix_in_capitals_too(tmp_path: Path, demo_file: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-demo", str(demo_file), "--project", str(tmp_path / "y.Kamishibai")]) == EXIT_BAD_INPUT
    assert "project folders end in .kamishibai" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_dot_dot_in_the_path_leaves_no_folder_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "a" / ".." / "b")]) == 0
    assert Path(capsys.readouterr().out.strip()) == tmp_path / "b.kamishibai"
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["b.kamishibai"], "no empty `a` is left"
    assert (tmp_path / "b.kamishibai" / "project.db").is_file()


def test_a_folder_of_other_files_is_refused_without_advice_to_open_it(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "notes.kamishibai"
    folder.mkdir()
    (folder / "todo.txt").write_text("x", encoding="utf-8")
    assert main(["new", str(tmp_path / "notes")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"{folder} already exists and holds other files; a new project needs a new or empty folder." in err
    assert "open" not in err.lower(), err
    assert sorted(entry.name for entry in folder.iterdir()) == ["todo.txt"]


def test_an_existing_project_is_named_as_one_with_the_command_that_opens_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "story")]) == 0
    capsys.readouterr()
    assert main(["new", str(tmp_path / "story.kamishibai")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"{tmp_path / 'story.kamishibai'} is already a project." in err, err
    assert f"kamishibai open {tmp_path / 'story.kamishibai'}" in err, err


def test_an_empty_folder_still_becomes_a_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty.kamishibai").mkdir()
    assert main(["new", str(tmp_path / "empty.kamishibai")]) == 0
    assert (tmp_path / "empty.kamishibai" / "project.db").is_file()
