"""The storage layer refuses a new project's path that names no folder of its own (only dots
and spaces: ``..``, ``...``, ``..kamishibai``), so that the window's New Project dialog, which
asks :meth:`Project.new_folder`, refuses what `kamishibai new` refuses; and a project name's
control character is named by its code point."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.errors import ProjectFileError

NAMELESS = ["", ".", "..", "...", "..kamishibai", "...kamishibai", ".kamishibai", "x/..", ". .", "  ", "a/. . ."]


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder two levels down (``..`` names a real folder there), made current."""
    folder = tmp_path / "a" / "b"
    (folder / "x").mkdir(parents=True)
    (folder / "a").mkdir()
    monkeypatch.chdir(folder)
    return folder


def _made(tmp_path: Path) -> list[Path]:
    return [p for p in tmp_path.rglob("*") if "kamishibai" in p.name]


@pytest.mark.parametrize("name", NAMELESS)
def test_new_folder_refuses_a_name_of_dots(work: Path, tmp_path: Path, name: str) -> None:
    with pytest.raises(ProjectFileError) as raised:
        Project.new_folder(name)
    assert raised.value.message == f"{name!r} has no name to give the project folder."
    assert "kamishibai new my-story" in raised.value.hint
    with pytest.raises(ProjectFileError, match="has no name to give the project folder"):
        Project.create(name, name="A story")
    assert _made(tmp_path) == []


@pytest.mark.parametrize("name", ["..", "...", "..kamishibai"])
def test_import_bundle_refuses_a_name_of_dots(work: Path, tmp_path: Path, name: str) -> None:
    with Project.create(tmp_path / "source") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with pytest.raises(ProjectFileError, match="has no name to give the project folder"):
        import_bundle(bundle, Path(name))
    assert _made(tmp_path) == [tmp_path / "source.kamishibai"]


@pytest.mark.parametrize("name", ["my-story", "my.story", ".hidden-story", "...story", "story.kamishibai", "話"])
def test_new_folder_takes_a_name_with_more_than_dots(work: Path, name: str) -> None:
    folder = Project.new_folder(name)
    assert folder.name.endswith(".kamishibai") and folder.name.removesuffix(".kamishibai").strip(".")


@pytest.mark.parametrize("name,said", [("Qi\nqi", "a line break (U+000A) at character 3"),
                                       ("Qiqi\x1b[2J", "a control character (U+001B) at character 5"),
                                       ("Qiqi\x85", "a control character (U+0085) at character 5")])
def test_new_folder_names_a_control_character_in_the_project_name(work: Path, name: str, said: str) -> None:
    with pytest.raises(ProjectFileError, match=re.escape(said)):
        Project.new_folder("story", name)
    with pytest.raises(ProjectFileError, match="The project name is empty"):
        Project.new_folder("story", "   ")


@pytest.mark.parametrize(("folder", "shown"), [
    ("story\nline two", "story line two"),
    ("esc\x1b[31mred", "esc [31mred"),
    ("\t\x7f\x85", "Untitled"),
    ("plain name", "plain name"),
    ("x" * 240, "x" * 200),
])
def test_a_folder_names_the_project_without_control_characters(tmp_path: Path, folder: str, shown: str) -> None:
    """A project made without a name takes its folder's, cleaned: a line break or an escape in
    a folder name used to reach window titles and sheets as it was."""
    project = Project.create(tmp_path / folder)
    try:
        assert project.name == shown and project.info()["name"] == shown
    finally:
        project.close()


def test_a_stored_name_with_a_control_character_is_shown_cleaned(tmp_path: Path) -> None:
    """A foreign or hand-edited file storing such a name opens, shown cleaned; the file keeps its value."""
    with Project.create(tmp_path / "story", name="Good") as project:
        project.database.set_meta("name", "bad\x1b]0;title\x07name")
        project.database.conn.commit()
    with Project.open(tmp_path / "story.kamishibai") as project:
        assert project.name == "bad ]0;title name"
        assert project.database.meta()["name"] == "bad\x1b]0;title\x07name"


def test_a_folder_name_near_the_limit_is_made_and_unpacked(tmp_path: Path) -> None:
    """244 characters and ``.kamishibai`` make 255 bytes, the most a name may have: creating and
    unpacking such a project works (their hidden work folders used to add 16 bytes to the name
    and fail as "can't be written: File name too long")."""
    name = "y" * 244
    with Project.create(tmp_path / name) as project:
        assert project.path.name == name + ".kamishibai"
        bundle = export_bundle(project, tmp_path / "story.kbundle")
    (tmp_path / "again").mkdir()
    with import_bundle(bundle, tmp_path / "again" / name) as unpacked:
        assert unpacked.path.name == name + ".kamishibai" and unpacked.name == name[:200]
    assert [p.name for p in (tmp_path / "again").iterdir()] == [name + ".kamishibai"]
