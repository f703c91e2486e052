"""The Makefile installs what each target needs, once, and ``make`` alone lists the targets.

``make run`` installed the developer toolchain (its stamp ran ``bootstrap.sh --dev``); a
weights file whose time changed (``kamishibai checkpoints convert``, a copy) reinstalled the
engines' libraries; plain ``make`` ran only the system check. Read with ``make -n`` in a copy
of the Makefile, over stamps made as bootstrap.sh makes them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder with the Makefile, an older pyproject.toml and bootstrap.sh, and mini's weights."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "packaging").mkdir()
    for name in ("pyproject.toml", "packaging/bootstrap.sh"):
        (tmp_path / name).write_text("")
        os.utime(tmp_path / name, (time.time() - 100, time.time() - 100))
    (tmp_path / "checkpoints" / "mini").mkdir(parents=True)
    (tmp_path / "checkpoints" / "mini" / "lm.safetensors").write_bytes(b"")
    (tmp_path / ".venv").mkdir()
    return tmp_path


def _dry_run(folder: Path, *goals: str) -> list[str]:
    # as a user runs it: not with the variables of a make this suite may run under (`make test YES=1`
    # passes YES=1 down through MAKEFLAGS, and every bootstrap line then says --yes)
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES",
                                                              "YES", "ENGINES"}}
    done = subprocess.run(["make", "-n", *goals], cwd=folder, capture_output=True, text=True, check=True, env=env)
    return done.stdout.splitlines()


def _bootstraps(lines: list[str]) -> list[str]:
    return [" ".join(re.sub(r".*packaging/bootstrap\.sh", "bootstrap.sh", line).split())
            for line in lines if "packaging/bootstrap.sh" in line and "check_system" not in line]


def _stamp(folder: Path, *names: str) -> None:
    for name in names:
        (folder / ".venv" / name).touch()


def test_run_installs_without_the_dev_tools(checkout: Path) -> None:
    steps = _bootstraps(_dry_run(checkout, "run"))
    assert steps[0] == "bootstrap.sh" and not [step for step in steps if "--dev" in step], steps


def test_test_after_run_adds_only_the_dev_tools(checkout: Path) -> None:
    _stamp(checkout, ".installed", ".engines-installed")  # what `make run` left (weights: engines too)
    assert _bootstraps(_dry_run(checkout, "test")) == ["bootstrap.sh --dev"]
    assert _bootstraps(_dry_run(checkout, "lint")) == ["bootstrap.sh --dev"]
    _stamp(checkout, ".dev-installed")
    assert _bootstraps(_dry_run(checkout, "test")) == []
    assert _bootstraps(_dry_run(checkout, "run")) == []


def test_a_clean_clone_installs_the_dev_tools_for_test(checkout: Path) -> None:
    assert "bootstrap.sh --dev" in _bootstraps(_dry_run(checkout, "test"))


def test_a_weights_file_newer_than_the_install_reinstalls_nothing(checkout: Path) -> None:
    _stamp(checkout, ".installed", ".engines-installed", ".dev-installed")
    later = time.time() + 50
    os.utime(checkout / "checkpoints" / "mini" / "lm.safetensors", (later, later))
    assert _bootstraps(_dry_run(checkout, "run")) == []
    assert _bootstraps(_dry_run(checkout, "test")) == []


def test_make_alone_lists_every_target(checkout: Path) -> None:
    lines = subprocess.run(["make"], cwd=checkout, capture_output=True, text=True, check=True).stdout.splitlines()
    phony = next(line for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith(".PHONY:"))
    listed = {line.split()[0] for line in lines if line.startswith("  ")}
    targets = set(phony.split()[1:]) - {"system-run", "system-test"}  # inner steps of run and test
    assert targets <= listed, targets - listed
    assert {"icons", "sample", "clean-venv", "help"} <= listed
