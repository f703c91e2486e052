"""An installed studio (a wheel in site-packages) keeps the big engines' converted weights in
the user's data folder, not inside its own package.

``kamishibai checkpoints convert``, ``convert-customx`` and ``checkpoints doctor`` defaulted to
``site-packages/studio/_shipped/checkpoints``: 20 GB and more written inside the package, which
may be read-only and which an uninstall leaves behind. The shipped mini weights stay where the
wheel put them, and a checkout and a frozen app keep ``checkpoints/`` beside the app.

The installed copy is the package's sources copied into a site-packages folder with a
``_shipped/`` folder as the wheel lays it out (the mini weights linked, not copied), run by
Python with that folder first on its path: what a wheel installs, without building one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from studio import composition
from studio import shipped as shipped_module
from tests.installation.conftest import REPO

IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")


def make_installed_copy(site: Path) -> Path:
    """``site/studio`` laid out as the wheel installs it; returns ``site``."""
    package = site / "studio"
    shutil.copytree(REPO / "studio", package, ignore=IGNORED)
    shipped = package / "_shipped"
    shutil.copytree(REPO / "resources", shipped / "resources", ignore=IGNORED)
    (shipped / "checkpoints").mkdir(parents=True)
    shutil.copy2(REPO / "checkpoints" / "README.md", shipped / "checkpoints" / "README.md")
    (shipped / "checkpoints" / "mini").symlink_to(REPO / "checkpoints" / "mini", target_is_directory=True)
    return site


def run_installed(site: Path, cwd: Path, *args: str, extra_env: dict[str, str] | None = None,
                  timeout: int = 300) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with the installed copy first on the path and a home of its own."""
    home = cwd / "home"
    env = {**os.environ, "PYTHONPATH": str(site), "QT_QPA_PLATFORM": "offscreen", "HOME": str(home),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CACHE_HOME": str(home / "cache"), **(extra_env or {})}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_installed_copy(tmp_path_factory.mktemp("installed") / "site-packages")


DATA_CHECKPOINTS = "home/data/Kamishibai/Kamishibai Studio/checkpoints"


def test_checkpoints_doctor_looks_in_the_data_folder(site: Path, tmp_path: Path) -> None:
    done = run_installed(site, tmp_path, "-m", "studio", "checkpoints", "doctor")
    out = done.stdout + done.stderr
    assert "internal error" not in out
    title = out.splitlines()[0]
    assert title == f"AnimeGamer checkpoints in {tmp_path / DATA_CHECKPOINTS / 'animegamer'}", out
    assert "checkpoints/ in your data folder" in out
    assert "_shipped" not in out
    assert done.returncode == 1  # nothing converted there yet


def test_the_customx_doctor_looks_in_the_data_folder(site: Path, tmp_path: Path) -> None:
    done = run_installed(site, tmp_path, "-m", "studio", "checkpoints", "doctor", "--engine", "customx", "--json")
    assert done.returncode == 1, done.stdout + done.stderr
    import json

    rows = json.loads(done.stdout)["files"]
    assert rows and all(Path(row["path"]).is_relative_to(tmp_path / DATA_CHECKPOINTS / "customx") for row in rows)


def test_a_conversion_writes_into_the_data_folder_not_the_package(site: Path, tmp_path: Path) -> None:
    from studio.engines.animegamer.sizes import TINY
    from tests.engines.animegamer.released_files import write_release

    release = write_release(tmp_path / "release", TINY)
    before = sorted(p.relative_to(site) for p in (site / "studio" / "_shipped").rglob("*"))
    done = run_installed(site, tmp_path, "-m", "studio", "checkpoints", "convert", str(release), "--size", "tiny")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.relative_to(site) for p in (site / "studio" / "_shipped").rglob("*")) == before
    written = tmp_path / DATA_CHECKPOINTS / "animegamer"
    assert (written / "qiqi" / "model.json").is_file(), done.stdout
    doctor = run_installed(site, tmp_path, "-m", "studio", "checkpoints", "doctor")
    assert "Ready: Qiqi" in doctor.stdout, doctor.stdout


def test_the_mini_weights_are_still_read_from_the_package(site: Path, tmp_path: Path) -> None:
    done = run_installed(site, tmp_path, "-m", "studio", "doctor", "--json")
    import json

    report = json.loads(done.stdout)
    mini = next(engine for engine in report["engines"] if engine["name"] == "mini")
    assert Path(mini["folder"]) == site / "studio" / "_shipped" / "checkpoints" / "mini"


def test_user_checkpoints_follow_the_kind_of_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed: the data folder's; a checkout (this one) and a frozen app: beside the app, as before."""
    data = tmp_path / "data"
    asked: list[int] = []

    def data_dir() -> Path:
        asked.append(1)
        return data

    assert composition.user_checkpoints(data_dir) == composition.default_checkpoints()
    assert asked == [], "a checkout needs no data folder (nor Qt) to know"
    package = tmp_path / "site" / "studio"
    (package / "_shipped" / "checkpoints").mkdir(parents=True)
    monkeypatch.setattr(shipped_module, "PACKAGE", package)
    monkeypatch.setattr(shipped_module, "INSIDE", package / "_shipped")
    monkeypatch.setattr(shipped_module, "BESIDE", package.parent)
    assert composition.user_checkpoints(data_dir) == data / "checkpoints"
    assert composition.default_checkpoints() == package / "_shipped" / "checkpoints"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "app" / "kamishibai"))
    assert not shipped_module.is_installed()
    monkeypatch.setattr(shipped_module, "INSIDE", tmp_path / "app" / "_internal" / "studio" / "_shipped")
    assert composition.user_checkpoints(data_dir) == (tmp_path / "app" / "checkpoints").resolve()
