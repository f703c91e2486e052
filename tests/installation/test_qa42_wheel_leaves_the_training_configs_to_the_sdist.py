"""The wheel carried all of the mini engine's configs (studio/engines/mini/configs/*.json), 34
files of which the installed studio reads two: the engine rebuilds its networks from the
checkpoint's own config.json, and ``studio.engines.mini.tiny`` (tiny random checkpoints) reads
``tiny`` and ``tiny_latent``; the rest (h200*, cpu_*) are for training from a source checkout.
The wheel now holds the tiny ones only, the sdist holds them all, and a wheel built from the
sdist is the same. CHANGELOG.md was not in the sdist; it is now.

The sdist and both wheels are built with the environment's setuptools (no build isolation:
nothing is downloaded), from a copy of the checkout, and their file lists are read."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.installation.conftest import REPO
from tests.installation.test_wheel import _setuptools_recent_enough

pytestmark = pytest.mark.slow

CONFIGS = "studio/engines/mini/configs/"
RUN_TIME_CONFIGS = {CONFIGS + "tiny.json", CONFIGS + "tiny_latent.json"}
"""The configs an installed studio reads (``studio.engines.mini.tiny``'s ``config_name``)."""
TOP = ("MANIFEST.in", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "studio", "resources",
       "checkpoints", "packaging", "docs")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".pytest_cache", "build", "dist")


def training_configs() -> set[str]:
    """The checkout's mini configs that only training reads."""
    return {f"{CONFIGS}{path.name}" for path in (REPO / CONFIGS).glob("*.json")} - RUN_TIME_CONFIGS


def _wheel(source: Path, out: Path) -> set[str]:
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "--quiet", "-w", str(out), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    if not _setuptools_recent_enough():
        pytest.skip("building without network needs setuptools >= 77 in this environment")
    work = tmp_path_factory.mktemp("dists")
    checkout = work / "checkout"
    checkout.mkdir()
    for name in TOP:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, checkout / name, ignore=IGNORED)
        else:
            shutil.copy2(path, checkout / name)
    made = subprocess.run([sys.executable, "-c", "from setuptools import build_meta; "
                           f"print(build_meta.build_sdist({str(work / 'sdist')!r}))"],
                          cwd=checkout, capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    sdist = work / "sdist" / made.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as archive:
        sdist_names = {member.name.split("/", 1)[1] for member in archive.getmembers() if member.isfile()}
        archive.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    return {"sdist": sdist_names, "wheel": _wheel(checkout, work / "wheel"),
            "wheel_from_sdist": _wheel(unpacked, work / "wheel-from-sdist")}


def test_the_wheel_holds_only_the_configs_the_installed_studio_reads(built: dict[str, set[str]]) -> None:
    assert len(training_configs()) > 10 and CONFIGS + "h200.json" in training_configs()
    for wheel in ("wheel", "wheel_from_sdist"):
        configs = {name for name in built[wheel] if name.startswith(CONFIGS)}
        assert configs == RUN_TIME_CONFIGS, (wheel, sorted(configs - RUN_TIME_CONFIGS))
    assert "studio/engines/mini/config.py" in built["wheel"], "the modules that read them are there"


def test_the_sdist_holds_every_config_and_the_changelog(built: dict[str, set[str]]) -> None:
    configs = {name for name in built["sdist"] if name.startswith(CONFIGS)}
    assert configs == training_configs() | RUN_TIME_CONFIGS
    assert "CHANGELOG.md" in built["sdist"]
    assert {"README.md", "LICENSE", "pyproject.toml"} <= built["sdist"]
