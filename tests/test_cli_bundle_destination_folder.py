"""`kamishibai bundle P OUT` where OUT names a folder, not a file: `.`, `/` and `''` ended in
"internal error: ValueError: PosixPath('.') has an empty name", `..` wrote a hidden file
`...zip` into the working folder, and an existing folder `backups` (or `backups/`) quietly
became `backups.zip` beside it. Now an existing folder gets the bundle inside it, named for
the project (as `cp` puts a file into a folder), and a folder that isn't there (`missing/`)
or an empty name is refused, naming a file to give instead, with nothing written."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    done = kamishibai("new", "story", cwd=folder)
    assert done.returncode == 0, done.stderr
    (folder / "backups").mkdir()
    return folder


def _outside_the_project(work: Path) -> list[str]:
    return sorted(str(p) for p in work.parent.rglob("*") if "story.kamishibai" not in p.parts)


@pytest.mark.parametrize(("out", "written"), [(".", "story.zip"), ("..", "../story.zip"),
                                              ("backups", "backups/story.zip"), ("backups/", "backups/story.zip")])
def test_a_destination_folder_gets_the_bundle_inside_it(work: Path, out: str, written: str) -> None:
    done = kamishibai("bundle", "story", out, cwd=work)
    assert done.returncode == 0, done.stderr
    target = (work / written).resolve()
    assert (work / done.stdout.strip()).resolve() == target
    with zipfile.ZipFile(target) as bundle:
        assert "project.db" in bundle.namelist()
    assert not list(work.parent.rglob("...zip")) and not (work / "backups.zip").exists()


@pytest.mark.parametrize(("out", "said"), [("", "The bundle's file name is empty"),
                                           ("missing/", "names a folder, not the .zip file to write")])
def test_no_file_named_is_refused(work: Path, out: str, said: str) -> None:
    before = _outside_the_project(work)
    done = kamishibai("bundle", "story", out, cwd=work)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert said in done.stderr, done.stderr
    assert "story.zip" in done.stderr, "the hint names a file to write instead"
    assert _outside_the_project(work) == before, "nothing was written"


def test_a_file_name_is_still_written_with_zip_appended(work: Path) -> None:
    done = kamishibai("bundle", "story", "backups/story-v2", cwd=work)
    assert done.returncode == 0, done.stderr
    assert (work / "backups" / "story-v2.zip").is_file()


def test_unbundle_without_a_destination_unpacks_beside_the_bundle(tmp_path: Path) -> None:
    """`kamishibai unbundle story.zip` was refused by the parser ("the following arguments are
    required: dest"); the bundle's own name beside it is what a user means."""
    project = tmp_path / "story.kamishibai"
    assert kamishibai("new", str(project), cwd=tmp_path).returncode == 0
    assert kamishibai("bundle", str(project), "moved.zip", cwd=tmp_path).returncode == 0
    done = kamishibai("unbundle", "moved.zip", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "moved.kamishibai" / "project.db").is_file()
    again = kamishibai("unbundle", "moved.zip", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
