"""A project's name and its folder's name may not hold a directional embedding, override or
isolate (U+202A..U+202E, U+2066..U+2069), a Unicode line break (U+2028, U+2029) or a lone
surrogate, as a character's name may not: ``Story``, U+202E, ``FDP.exe`` showed reversed
(``Storyexe.PDF``) in the window title, the recent projects and file dialogs. Creating such a
project is refused, naming the character; a project already named so (a folder renamed by
hand, a file written by an older version or another program) opens, its name shown without
them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.core.text import BIDI_CONTROLS
from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.errors import ProjectFileError

SPOOF = "Story\u202eFDP.exe"


@pytest.mark.parametrize("char", sorted(BIDI_CONTROLS))
def test_a_project_name_with_a_directional_control_is_refused(tmp_path: Path, char: str) -> None:
    with pytest.raises(ProjectFileError) as raised:
        Project.create(tmp_path / "story", name=f"Story{char}FDP.exe")
    assert f"U+{ord(char):04X}" in raised.value.message and "at character 6" in raised.value.message
    assert "reordered" in raised.value.message and "U+200F" in raised.value.hint
    assert list(tmp_path.iterdir()) == []


def test_the_window_asks_the_same_check_before_closing_the_open_project(tmp_path: Path) -> None:
    with pytest.raises(ProjectFileError, match=re.escape("U+202E, a right-to-left override at character 6")):
        Project.new_folder(tmp_path / "story", SPOOF)


@pytest.mark.parametrize(("name", "said"), [("line\u2028two", "a line break (U+2028) at character 5"),
                                            ("para\u2029two", "a line break (U+2029) at character 5"),
                                            ("bad\udcffbyte", "not valid UTF-8 text (a bad byte at character 4)")])
def test_a_project_name_with_a_unicode_line_break_or_a_bad_byte_is_refused(tmp_path: Path, name: str,
                                                                           said: str) -> None:
    """A lone surrogate (a name read from bytes that are not UTF-8) failed in SQLite with a
    bare UnicodeEncodeError traceback."""
    with pytest.raises(ProjectFileError, match=re.escape(said)):
        Project.create(tmp_path / "story", name=name)
    assert list(tmp_path.iterdir()) == []


def test_plain_direction_marks_stay_allowed(tmp_path: Path) -> None:
    name = "\u05e1\u05d9\u05e4\u05d5\u05e8 (2)\u200f"
    with Project.create(tmp_path / "story", name=name) as project:
        assert project.name == name


@pytest.mark.parametrize("folder", [SPOOF, "a\u2066b", "x.kamishibai\u202c"])
def test_a_new_folder_named_with_a_directional_control_is_refused(tmp_path: Path, folder: str) -> None:
    with pytest.raises(ProjectFileError, match="file dialogs and the recent projects would show"):
        Project.create(tmp_path / "parent" / folder)
    assert list(tmp_path.iterdir()) == []  # not even the folder above


def test_unbundling_into_such_a_folder_is_refused(tmp_path: Path) -> None:
    with Project.create(tmp_path / "source") as project:
        bundle = export_bundle(project, tmp_path / "story.zip")
    with pytest.raises(ProjectFileError, match=re.escape("U+202E, a right-to-left override")):
        import_bundle(bundle, tmp_path / SPOOF)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source.kamishibai", "story.zip"]


def test_an_existing_folder_named_so_opens_with_its_name_shown_safely(tmp_path: Path) -> None:
    """A folder renamed by hand, holding a project an older version named after it: it opens
    (refusing it would lock the user out of their story), named without the override."""
    with Project.create(tmp_path / "plain") as project:
        project.database.set_meta("name", SPOOF)  # what an older version stored from the folder's name
        project.database.conn.commit()
    moved = tmp_path / f"{SPOOF}.kamishibai"
    (tmp_path / "plain.kamishibai").rename(moved)
    with Project.open(moved) as project:
        assert project.name == "Story FDP.exe" and project.info()["name"] == "Story FDP.exe"
        assert project.database.meta()["name"] == SPOOF  # the file keeps its value
        project.database.conn.execute("DELETE FROM meta WHERE key = 'name'")
        project.database.conn.commit()
    with Project.open(moved) as project:  # no stored name: the folder's, cleaned alike
        assert project.name == "Story FDP.exe"


@pytest.mark.parametrize("stored", ["a\u2066b\u2069c", "line\u2028two"])
def test_a_stored_name_with_such_characters_is_shown_cleaned(tmp_path: Path, stored: str) -> None:
    with Project.create(tmp_path / "story", name="Good") as project:
        project.database.set_meta("name", stored)
        project.database.conn.commit()
    with Project.open(tmp_path / "story.kamishibai") as project:
        assert not set(project.name) & (BIDI_CONTROLS | set("\u2028\u2029"))
        assert project.name == re.sub("[\u2066\u2069\u2028]", " ", stored)
