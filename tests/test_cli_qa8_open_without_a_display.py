"""`kamishibai open` (and `kamishibai` alone, which runs it) in a terminal with no display (over
SSH, in a container): Qt aborted the process (exit status 134, a core dump) after printing its
plugin messages ("no Qt platform plugin could be initialized. Reinstalling the application may
fix this problem"), which read as a broken install. It now stops with exit status 2 and says
there is no display, before anything is created; a platform chosen with QT_QPA_PLATFORM still
opens the window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "darwin" or sys.platform.startswith("win"),
                                reason="DISPLAY and WAYLAND_DISPLAY are how Linux and the BSDs name a screen")


def _environment(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment without a display, with a home and settings of its own."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XDG_RUNTIME_DIR", "QT_QPA_PLATFORM")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_CACHE_HOME=str(home / "cache"), **extra)
    return env


@pytest.mark.parametrize("command", [["open", "{project}"], []])
def test_without_a_display_the_window_is_refused_with_what_to_do(tmp_path: Path, command: list[str]) -> None:
    project = tmp_path / "story.kamishibai"
    args = [item.format(project=project) for item in command]
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120,
                          env=_environment(tmp_path / "home"), cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "kamishibai: error: There is no display to open the studio window on" in done.stderr
    assert "DISPLAY" in done.stderr and "kamishibai --help" in done.stderr
    assert "Qt platform plugin" not in done.stderr
    assert not project.exists()  # the window would have created it


def test_a_platform_chosen_with_qt_qpa_platform_still_opens_the_window(tmp_path: Path) -> None:
    project = tmp_path / "story.kamishibai"
    env = _environment(tmp_path / "home", QT_QPA_PLATFORM="offscreen", KAMISHIBAI_QUIT_AFTER_MS="1500")
    done = subprocess.run([sys.executable, "-m", "studio", "open", str(project)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=tmp_path)
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert "no display" not in done.stderr
