"""packaging/bootstrap.sh with a Python too old, a .venv it can't use, and the torch build it
picks, run with stand-in Pythons that log their arguments (nothing is installed).

A Python older than 3.11 used to pass the system check and get a .venv, and the install
failed only at its last step ("requires a different Python"); the .venv was then reused by
every later run, even with PYTHON=python3.12. A .venv without pip (Debian's `python3 -m
venv` without python3-venv leaves bin/python behind) failed with "No module named pip" (QA).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.installation.conftest import PACKAGING, REPO

SCRIPT = PACKAGING / "bootstrap.sh"

pytestmark = pytest.mark.skipif(sys.platform == "win32" or shutil.which("bash") is None, reason="needs bash")


def stand_in(path: Path, log: Path, *, version: str = "3.11", pip: bool = True, ensurepip: bool = True,
             resolves: bool = False) -> Path:
    """A Python that logs each call as ``NAME: ARGS``, prints ``version`` for the version
    probe, answers ``-m pip --version`` and ``-m ensurepip`` as told, says whether the
    PyTorch index's host resolves, makes a .venv holding a Python like itself for ``-m venv``,
    and succeeds at everything else (``pip install``: nothing is installed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    version_line = f"echo {version}; exit 0" if version else "exit 1"
    name = path.parent.parent.name if path.parent.name == "bin" else path.parent.name  # venv, system
    path.write_text(f"""#!/bin/sh
echo "{name}: $*" >> '{log}'
case "$2" in *version_info*) {version_line} ;; *getaddrinfo*) exit {0 if resolves else 1} ;; esac
if [ "$1 $2 $3" = "-m pip --version" ]; then exit {0 if pip else 1}; fi
if [ "$1 $2" = "-m ensurepip" ]; then exit {0 if ensurepip else 1}; fi
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin"; cp "$0" "$3/bin/python"; fi
exit 0
""", encoding="utf-8")
    path.chmod(0o755)
    return path


def bootstrap(tmp_path: Path, python: Path, *options: str, gpu: bool = False) -> tuple[subprocess.CompletedProcess[str],
                                                                                      list[str]]:
    """Run the script; ``nvidia-smi`` is a stand-in that finds a GPU or not."""
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    smi = tools / "nvidia-smi"
    smi.write_text(f"#!/bin/sh\nexit {0 if gpu else 9}\n", encoding="utf-8")
    smi.chmod(0o755)
    env = {**os.environ, "PYTHON": str(python), "VENV": str(tmp_path / "venv"), "ENGINES": "",
           "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(["bash", str(SCRIPT), *options], capture_output=True, text=True, timeout=60, env=env)
    log = tmp_path / "log"
    return done, log.read_text(encoding="utf-8").splitlines() if log.exists() else []


@pytest.mark.parametrize("version", ["3.10", "2.7", "3.9", ""])
def test_a_python_too_old_stops_before_anything_is_made(tmp_path: Path, version: str) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log", version=version)
    done, calls = bootstrap(tmp_path, python)
    assert done.returncode == 1
    assert "needs Python 3.11 or newer" in done.stderr and "PYTHON=" in done.stderr
    if version:
        assert f"is {version}." in done.stderr
    assert not (tmp_path / "venv").exists()
    assert all("check_system" not in call and "venv" not in call.split(": ", 1)[1] for call in calls), calls


def test_a_missing_python_is_named(tmp_path: Path) -> None:
    done, _ = bootstrap(tmp_path, tmp_path / "no-such-python")
    assert done.returncode == 1
    assert "no-such-python not found" in done.stderr and "3.11 or newer" in done.stderr


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13", "4.0"])
def test_recent_pythons_are_accepted(tmp_path: Path, version: str) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log", version=version)
    stand_in(tmp_path / "venv" / "bin" / "python", tmp_path / "log", version=version)
    done, calls = bootstrap(tmp_path, python)
    assert done.returncode == 0, done.stderr
    assert any(call.startswith("venv: -m pip install --quiet -e .") for call in calls), calls


def test_a_venv_of_an_older_python_is_not_reused(tmp_path: Path) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log", version="3.12")
    stand_in(tmp_path / "venv" / "bin" / "python", tmp_path / "log", version="3.10")
    done, calls = bootstrap(tmp_path, python)
    assert done.returncode == 1
    assert "holds Python 3.10" in done.stderr and "rm -rf" in done.stderr
    assert not any("pip install" in call for call in calls), calls


def test_a_venv_without_pip_gets_it_from_ensurepip(tmp_path: Path) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log")
    stand_in(tmp_path / "venv" / "bin" / "python", tmp_path / "log", pip=False)
    done, calls = bootstrap(tmp_path, python)
    assert done.returncode == 0, done.stderr
    ensure = calls.index("venv: -m ensurepip --upgrade")
    assert ensure < calls.index("venv: -m pip install --quiet --upgrade pip")
    assert (tmp_path / "venv" / ".installed").is_file()


def test_a_venv_without_pip_that_ensurepip_cannot_mend_stops_with_the_way_out(tmp_path: Path) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log")
    stand_in(tmp_path / "venv" / "bin" / "python", tmp_path / "log", pip=False, ensurepip=False)
    done, calls = bootstrap(tmp_path, python)
    assert done.returncode == 1
    assert "Could not install pip" in done.stderr and "rm -rf" in done.stderr
    assert not any("pip install" in call for call in calls), calls


def test_a_new_venv_is_made_with_the_python_given(tmp_path: Path) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log")
    done, calls = bootstrap(tmp_path, python)
    assert done.returncode == 0, done.stderr
    assert f"system: -m venv {tmp_path / 'venv'}" in calls


@pytest.mark.parametrize(("gpu", "resolves", "torch"), [
    (False, False, "torch==2.13.0"),  # an offline mirror of PyPI: its pinned CPU wheel
    (False, True, "torch --index-url https://download.pytorch.org/whl/cpu"),
    (True, True, "torch"),  # PyPI's default (CUDA) build
])
def test_the_torch_build_follows_the_gpu(tmp_path: Path, gpu: bool, resolves: bool, torch: str) -> None:
    python = stand_in(tmp_path / "system" / "python", tmp_path / "log")
    stand_in(tmp_path / "venv" / "bin" / "python", tmp_path / "log", resolves=resolves)
    done, calls = bootstrap(tmp_path, python, "--engines", gpu=gpu)
    assert done.returncode == 0, done.stderr
    installs = [call.removeprefix("venv: -m pip install --quiet ") for call in calls if "pip install" in call]
    assert installs == ["--upgrade pip", torch, "-e .[engines]"]
    assert (tmp_path / "venv" / ".engines-installed").is_file()


def test_the_version_checked_is_the_one_pyproject_requires() -> None:
    requires = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    checked = re.search(r"^MIN_PYTHON=(\S+)$", SCRIPT.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert checked is not None and requires == f">={checked.group(1)}"
