"""A project folder copied to a new name kept its old project name: `info` and the window said
"p50" for the folder c8.kamishibai, and its bundles and exports were titled "p50". A project
made without a name (`kamishibai new PATH`) is now named for its folder wherever the folder
goes (a copy, a rename, a bundle unpacked under another name); one given a name (`new --name`)
keeps it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path


def kamishibai(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180,
                          cwd=cwd)


def _name(folder: str, cwd: Path) -> str:
    done = kamishibai("info", folder, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    name = json.loads(done.stdout)["name"]
    assert isinstance(name, str)
    return name


def _bundled_name(bundle: Path) -> str:
    with zipfile.ZipFile(bundle) as archive:
        name = json.loads(archive.read("kamishibai-bundle.json"))["name"]
    assert isinstance(name, str)
    return name


def test_a_project_made_without_a_name_follows_its_folder(tmp_path: Path) -> None:
    assert kamishibai("new", "p50", cwd=tmp_path).returncode == 0
    assert _name("p50", tmp_path) == "p50"
    shutil.copytree(tmp_path / "p50.kamishibai", tmp_path / "c8.kamishibai")
    assert _name("c8", tmp_path) == "c8"
    (tmp_path / "p50.kamishibai").rename(tmp_path / "Night walk.kamishibai")
    assert _name("Night walk", tmp_path) == "Night walk"

    done = kamishibai("bundle", "c8", "c8.zip", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _bundled_name(tmp_path / "c8.zip") == "c8"
    done = kamishibai("unbundle", "c8.zip", "restored", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _name("restored", tmp_path) == "restored"


def test_a_name_given_is_kept_by_a_copy(tmp_path: Path) -> None:
    done = kamishibai("new", "walk", "--name", "Night walk", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    shutil.copytree(tmp_path / "walk.kamishibai", tmp_path / "walk-v2.kamishibai")
    assert _name("walk-v2", tmp_path) == "Night walk"
    done = kamishibai("bundle", "walk-v2", "v2.zip", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert _bundled_name(tmp_path / "v2.zip") == "Night walk"
