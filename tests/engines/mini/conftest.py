"""Shared fixtures of the mini engine's tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkpoint folder of the tiny config with random weights (written once per module)."""
    from studio.engines.mini.tiny import write_tiny_checkpoint

    return write_tiny_checkpoint(tmp_path_factory.mktemp("tiny") / "mini")


@pytest.fixture
def checkpoints(tiny: Path, tmp_path: Path) -> Path:
    """A copy of the tiny checkpoint (``checkpoints/mini``) that a test may damage."""
    shutil.copytree(tiny, tmp_path / "mini")
    return tmp_path
