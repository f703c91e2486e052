"""A project's name and its folder's name may not hold a character that shows as nothing
(U+200B, U+2060, U+FEFF anywhere; U+200C and U+200D where they join nothing), as a
character's or a speaker's name may not: "Qi", U+200B, "qi" showed as "Qiqi" in the window
title, the recent projects and file dialogs, yet was another project. Creating one is
refused, naming the character and where it is; the joiners a joining script needs stay
allowed; a project already named so opens, its name shown without them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studio.cli import EXIT_BAD_INPUT, main
from studio.core.text import ZERO_WIDTH
from studio.storage import Project
from studio.storage.errors import ProjectFileError

NAMED = {"\u200b": "U+200B, a zero-width space", "\u200c": "U+200C, a zero-width non-joiner",
         "\u200d": "U+200D, a zero-width joiner", "\u2060": "U+2060, a word joiner",
         "\ufeff": "U+FEFF, a zero-width no-break space"}


@pytest.mark.parametrize("char", sorted(ZERO_WIDTH))
def test_a_project_name_with_an_invisible_character_is_refused(tmp_path: Path, char: str) -> None:
    with pytest.raises(ProjectFileError) as raised:
        Project.create(tmp_path / "story", name=f"Qi{char}qi")
    assert f"holds {NAMED[char]} at character 3: it shows as nothing" in raised.value.message
    assert "Remove it" in raised.value.hint
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("char", sorted(ZERO_WIDTH))
def test_a_folder_name_with_an_invisible_character_is_refused(tmp_path: Path, char: str) -> None:
    with pytest.raises(ProjectFileError, match=re.escape(f"holds {NAMED[char]} at character 1")):
        Project.create(tmp_path / "parent" / f"{char}story")
    assert list(tmp_path.iterdir()) == []  # not even the folder above


def test_joiners_that_join_a_script_stay_allowed(tmp_path: Path) -> None:
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # a word the non-joiner belongs in
    with Project.create(tmp_path / persian, name=persian) as project:
        assert project.name == persian and project.path.name == f"{persian}.kamishibai"


def test_kamishibai_new_refuses_them_and_names_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "Qi\u200bqi")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "The folder name 'Qi\\u200bqi' holds U+200B, a zero-width space at character 3" in err, err
    assert main(["new", str(tmp_path / "story"), "--name", "Story\u2060"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "The project name 'Story\\u2060' holds U+2060, a word joiner at character 6" in err, err
    assert main(["sample", str(tmp_path / "\ufeffsample"), "--no-generate"]) == EXIT_BAD_INPUT
    assert "U+FEFF, a zero-width no-break space at character 1" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_project_already_named_so_opens_named_without_them(tmp_path: Path) -> None:
    """A folder renamed by hand, a file an older version wrote: refusing to open it would
    lock the user out of their story."""
    with Project.create(tmp_path / "plain", name="Plain") as project:
        project.database.set_meta("name", "Qi\u200bqi \u2060")
        project.database.conn.commit()
    moved = tmp_path / "Qi\ufeffqi.kamishibai"
    (tmp_path / "plain.kamishibai").rename(moved)
    with Project.open(moved) as project:
        assert project.name == "Qiqi"
        assert project.database.meta()["name"] == "Qi\u200bqi \u2060"  # the file keeps its value
        project.database.conn.execute("DELETE FROM meta WHERE key = 'name'")
        project.database.conn.commit()
    with Project.open(moved) as project:  # no stored name: the folder's, without them too
        assert project.name == "Qiqi"
