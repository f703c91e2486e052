"""The metadata declares Apache-2.0, and the wheel and the source distribution carry the
licence's text (``LICENSE``): there was none, in the checkout or in either.

The wheel also carries the list of system packages the window checks Qt's libraries against
(``studio/system-packages.txt``, in a checkout a link to ``packaging/system-packages.txt``):
the sdist is built from a copy of the checkout that keeps that link as a link, and the wheel
from the sdist, as pip builds one from PyPI.
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.installation.conftest import PACKAGING, REPO
from tests.installation.test_qa37_sdist import _build
from tests.installation.test_wheel import _setuptools_recent_enough

pytestmark = pytest.mark.slow

TOP = ("LICENSE", "MANIFEST.in", "pyproject.toml", "README.md", "studio", "resources", "checkpoints", "packaging",
       "docs")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not _setuptools_recent_enough():
        pytest.skip("building without network needs setuptools >= 77 in this environment")
    work = tmp_path_factory.mktemp("license")
    checkout = work / "checkout"
    checkout.mkdir()
    for name in TOP:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, checkout / name, ignore=IGNORED, symlinks=True)
        else:
            shutil.copy2(path, checkout / name)
    assert (checkout / "studio" / "system-packages.txt").is_symlink()
    sdist = _build("sdist", checkout, work / "sdist")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    (unpacked,) = (work / "unpacked").iterdir()
    return {"sdist": sdist, "wheel": _build("wheel", unpacked, work / "wheel")}


def test_the_licence_is_the_apache_licence() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert 'you may not use this file except in compliance with the License.' in text


def test_the_sdist_carries_the_licence(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as archive:
        members = {member.name.split("/", 1)[1]: member for member in archive.getmembers() if "/" in member.name}
        licence = archive.extractfile(members["LICENSE"])
        assert licence is not None and licence.read() == (REPO / "LICENSE").read_bytes()
        assert "PKG-INFO" in members
        info = archive.extractfile(members["PKG-INFO"])
        assert info is not None
        assert "License-File: LICENSE" in info.read().decode()


def test_the_wheel_carries_the_licence_and_declares_it(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as archive:
        names = archive.namelist()
        (licence,) = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
        assert archive.read(licence) == (REPO / "LICENSE").read_bytes()
        (metadata,) = [name for name in names if name.endswith(".dist-info/METADATA")]
        text = archive.read(metadata).decode()
    assert "License-Expression: Apache-2.0" in text
    assert "License-File: LICENSE" in text


def test_the_wheel_carries_the_system_package_list(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as archive:
        assert archive.read("studio/system-packages.txt") == (PACKAGING / "system-packages.txt").read_bytes()
