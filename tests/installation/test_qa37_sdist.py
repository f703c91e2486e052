"""The source distribution (``python -m build``, or a packager's own tools) holds what builds
the wheel, the desktop integration and the documentation, and none of the test suite, and the
wheel built from it is the wheel built from the checkout.

It used to hold the top-level ``tests/test*.py`` files alone (setuptools adds them by
default), without the conftest files and fixtures they import, and no ``packaging/`` folder,
so a distribution building from it had no desktop entry, metainfo or icon to install.

Both are built with the environment's setuptools (no build isolation: nothing is downloaded),
from a copy of the checkout, so that the checkout gets no build/ or egg-info folders.
"""

from __future__ import annotations

import hashlib
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

TOP = ("MANIFEST.in", "pyproject.toml", "README.md", "LICENSE", "Makefile", "studio", "resources", "checkpoints",
       "packaging", "docs", "tests")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".pytest_cache", ".hypothesis", "build", "dist")

BUILD = """
import sys
from setuptools import build_meta
kind, out = sys.argv[1], sys.argv[2]
print(build_meta.build_sdist(out) if kind == "sdist" else build_meta.build_wheel(out))
"""


def _build(kind: str, source: Path, out: Path) -> Path:
    out.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-c", BUILD, kind, str(out)], cwd=source, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out / done.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not _setuptools_recent_enough():
        pytest.skip("building without network needs setuptools >= 77 in this environment")
    work = tmp_path_factory.mktemp("sdist")
    checkout = work / "checkout"
    checkout.mkdir()
    for name in TOP:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, checkout / name, ignore=IGNORED)
        elif path.is_file():
            shutil.copy2(path, checkout / name)
    # what a checkout holds once the tests have imported packaging/'s scripts
    (checkout / "packaging" / "__pycache__").mkdir(exist_ok=True)
    (checkout / "packaging" / "__pycache__" / "make_icons.cpython-311.pyc").write_bytes(b"\x00")
    sdist = _build("sdist", checkout, work / "sdist")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    return {"sdist": sdist, "from_sdist": _build("wheel", unpacked, work / "wheel-sdist"),
            "from_checkout": _build("wheel", checkout, work / "wheel-checkout")}


@pytest.fixture(scope="module")
def sdist_names(built: dict[str, Path]) -> set[str]:
    with tarfile.open(built["sdist"]) as archive:
        return {member.name.split("/", 1)[1] for member in archive.getmembers() if member.isfile()}


def test_the_sdist_holds_no_test_file(sdist_names: set[str]) -> None:
    assert sorted(name for name in sdist_names if name.startswith("tests/")) == []
    assert [name for name in sdist_names if "__pycache__" in name or name.endswith((".pyc", ".gitkeep"))] == []


def test_the_sdist_holds_the_desktop_integration_and_the_docs(sdist_names: set[str]) -> None:
    wanted = {"packaging/io.kamishibai.Studio.desktop", "packaging/io.kamishibai.Studio.metainfo.xml",
              "packaging/io.kamishibai.Studio.svg", "packaging/make_icons.py", "packaging/kamishibai.spec",
              "packaging/entry.py", "README.md", "pyproject.toml", "checkpoints/mini/config.json"}
    docs = {str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md")}
    assert "docs/ANIMEGAMER.md" in docs
    assert (wanted | docs) - sdist_names == set()


def _members(wheel: Path) -> dict[str, str]:
    with zipfile.ZipFile(wheel) as archive:
        return {name: hashlib.sha256(archive.read(name)).hexdigest() for name in archive.namelist()}


def test_the_sdist_builds_the_wheel_the_checkout_builds(built: dict[str, Path]) -> None:
    from_sdist, from_checkout = _members(built["from_sdist"]), _members(built["from_checkout"])
    assert "studio/_shipped/checkpoints/mini/lm.safetensors" in from_sdist
    assert sorted(set(from_sdist) ^ set(from_checkout)) == []
    assert [name for name in from_sdist if from_sdist[name] != from_checkout[name]] == []
