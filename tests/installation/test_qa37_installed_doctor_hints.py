"""``kamishibai doctor``'s hints say what can be done where the studio runs.

In the one-folder (PyInstaller) app, torch's line told the user to ``pip install
'kamishibai-studio[engines]'``, which nothing can add to a frozen app; and the Qt line of an
installed copy pointed at ``make run``, which a wheel user does not have, where it now gives
the apt-get line from the studio's own list of system packages.
"""

from __future__ import annotations

import importlib.util
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

import pytest

from studio import doctor, system_check
from studio.engines.install_hints import ENGINES_INSTALL


@pytest.fixture
def no_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object, **kwargs: object) -> ModuleSpec | None:
        return None if name == "torch" else real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_a_frozen_app_is_not_told_to_pip_install(no_torch: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    torch, gpus = doctor._torch_and_gpus()
    assert torch.ok and gpus == []
    assert torch.hint.startswith("The built app carries no torch, and nothing can be added to it: "), torch.hint
    assert "need it: pip install" not in torch.hint


def test_an_installed_copy_is_still_told_to_pip_install(no_torch: None) -> None:
    assert not getattr(sys, "frozen", False)
    torch, _ = doctor._torch_and_gpus()
    assert torch.hint == f"Engines with trained models need it: install it {ENGINES_INSTALL}."
    assert "pip install '.[engines]'" in torch.hint and "make run ENGINES=1" in torch.hint


def test_missing_qt_libraries_get_the_apt_get_line() -> None:
    wanted = ("libxcb-cursor.so.0", "libxkbcommon-x11.so.0")
    packages = [r.package for r in system_check.read_requirements(system_check.LIST) if r.target in wanted]
    assert len(packages) == 2
    hint = doctor._install_libraries(list(wanted))
    assert hint.endswith(f"apt-get install -y --no-install-recommends {' '.join(packages)}"), hint  # the list's order
    assert "make run" not in hint


def test_a_library_the_list_does_not_know_gets_the_package_manager_hint() -> None:
    assert "package manager" in doctor._install_libraries(["libkamishibai-nothing.so.3"])


def test_a_frozen_apps_ffmpeg_is_not_reinstalled_with_pip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import studio.storage.media as media

    def gone() -> str:
        raise FileNotFoundError("no ffmpeg in the bundle")

    monkeypatch.delenv("IMAGEIO_FFMPEG_EXE", raising=False)
    monkeypatch.setattr(media, "ffmpeg_exe", gone)
    assert doctor._ffmpeg().hint == "Reinstall it: pip install --force-reinstall imageio-ffmpeg."
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "app" / "kamishibai"))
    line = doctor._ffmpeg()
    assert not line.ok and "pip" not in line.hint
    assert str(tmp_path / "app") in line.hint and "IMAGEIO_FFMPEG_EXE" in line.hint
