"""In the one-folder app, every command names one checkpoints folder: ``checkpoints/`` beside
the executable, which the build makes and the engines read.

``kamishibai checkpoints doctor`` (and ``convert``, which writes there) used
``_internal/checkpoints/``, the folder beside ``studio/`` inside the bundle, while ``doctor``,
``play`` and the window looked beside the executable: weights converted with the defaults were
never found, and the two doctors named different folders.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from studio import shipped as shipped_module


@pytest.fixture
def frozen_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A one-folder layout: ``app/kamishibai`` and ``app/_internal/studio/`` (no wheel copy)."""
    app = tmp_path / "app"
    internal = app / "_internal"
    (internal / "studio").mkdir(parents=True)
    (internal / "resources").mkdir()
    (app / "checkpoints").mkdir()
    (app / "kamishibai").write_bytes(b"")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(app / "kamishibai"))
    monkeypatch.setattr(shipped_module, "PACKAGE", internal / "studio")
    monkeypatch.setattr(shipped_module, "INSIDE", internal / "studio" / "_shipped")
    monkeypatch.setattr(shipped_module, "BESIDE", internal)
    return app


def test_the_checkpoints_folder_is_beside_the_executable(frozen_app: Path) -> None:
    assert shipped_module.shipped("checkpoints") == (frozen_app / "checkpoints").resolve()


def test_the_resources_stay_inside_the_bundle(frozen_app: Path) -> None:
    assert shipped_module.shipped("resources") == frozen_app / "_internal" / "resources"


def test_the_command_line_and_the_window_name_the_same_folder(frozen_app: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from studio.composition import default_checkpoints
    from studio.ui.app_paths import AppPaths

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_checkpoints() == AppPaths.standard().default_checkpoint_dirs()[0].resolve()


def test_a_checkout_and_an_installed_copy_are_unchanged() -> None:
    """Not frozen: the wheel's copy inside the package, else the checkout's beside it."""
    assert not getattr(sys, "frozen", False)
    for name in ("checkpoints", "resources"):
        inside = shipped_module.INSIDE / name
        expected = inside if inside.is_dir() else shipped_module.BESIDE / name
        assert shipped_module.shipped(name) == expected
