"""`kamishibai unbundle out/big.zip out` unpacks into the existing folder ``out`` (as
``out/big.kamishibai``), as `bundle big.kamishibai out/` writes ``out/big.zip`` inside it; it
made ``./out.kamishibai`` beside the folder. An empty ``NAME.kamishibai`` folder is still the
project itself, and the help says which is which."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    done = kamishibai("new", "big", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (tmp_path / "out").mkdir()
    done = kamishibai("bundle", "big.kamishibai", "out/", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "big.zip").is_file()
    return tmp_path


@pytest.mark.parametrize("dest", ["out", "out/"])
def test_an_existing_folder_gets_the_project_inside_it(work: Path, dest: str) -> None:
    done = kamishibai("unbundle", "out/big.zip", dest, cwd=work)
    assert done.returncode == 0, done.stderr
    made = work / "out" / "big.kamishibai"
    assert (work / done.stdout.strip()).resolve() == made.resolve()
    with Project.open(made, read_only=True) as project:
        assert project.tree.nodes, "the unpacked project reads back"
    assert not (work / "out.kamishibai").exists()


def test_an_empty_project_named_folder_is_the_project_itself(work: Path) -> None:
    (work / "copy.kamishibai").mkdir()
    done = kamishibai("unbundle", "out/big.zip", "copy.kamishibai", cwd=work)
    assert done.returncode == 0, done.stderr
    assert (work / "copy.kamishibai" / "project.db").is_file()
    assert not (work / "copy.kamishibai" / "big.kamishibai").exists()


def test_a_missing_name_is_made_as_before(work: Path) -> None:
    done = kamishibai("unbundle", "out/big.zip", "fresh", cwd=work)
    assert done.returncode == 0, done.stderr
    assert (work / "fresh.kamishibai" / "project.db").is_file()


def test_the_help_says_a_folder_gets_the_project_inside_it(work: Path) -> None:
    done = kamishibai("unbundle", "--help", cwd=work)
    assert "existing folder to unpack into" in " ".join(done.stdout.split())
