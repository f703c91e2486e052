"""In a copy installed with pip, weights are looked for in the data folder first: the folder a
missing engine's advice names and where `checkpoints convert` writes, never the package."""

from __future__ import annotations

from pathlib import Path

import pytest

import studio.shipped as shipped_module
from studio.ui.app_paths import AppPaths


def test_an_installed_copy_looks_in_the_data_folder_first(private_user_folders: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    paths = AppPaths.standard()
    monkeypatch.setattr(shipped_module, "is_installed", lambda: True)
    dirs = paths.default_checkpoint_dirs()
    assert dirs[0] == paths.data_dir / "checkpoints"
    assert dirs[1] == shipped_module.shipped("checkpoints"), "the shipped mini is still found"


def test_a_checkout_looks_beside_the_app_first(private_user_folders: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = AppPaths.standard()
    monkeypatch.setattr(shipped_module, "is_installed", lambda: False)
    assert paths.default_checkpoint_dirs() == [shipped_module.shipped("checkpoints"), paths.data_dir / "checkpoints"]
