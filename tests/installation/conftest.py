"""Packaging tests: the scripts in packaging/ are loaded from their files (not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"


def load_script(name: str) -> ModuleType:
    """``packaging/NAME.py`` as a module (cached in sys.modules under a private name)."""
    key = f"_kamishibai_packaging_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def check_system() -> ModuleType:
    return load_script("check_system")
