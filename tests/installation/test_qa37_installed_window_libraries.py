"""A studio installed from the wheel, on a machine without the X libraries Qt's xcb plugin
loads: the window is refused with the apt-get line that installs them (exit status 2), where
Qt aborted the process (exit status 134, a core dump) saying "Reinstalling the application may
fix this problem", which it does not.

The check reads the same list, with the same probes, as ``packaging/check_system.py`` (``make
run``): ``studio/system_check.py``. Offscreen, Wayland and the other platforms skip it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from studio import system_check
from tests.installation.conftest import PACKAGING
from tests.installation.test_qa37_installed_checkpoints import make_installed_copy, run_installed

FAKE, FAKE_SONAME = "libkamishibai-test-xcb0", "libkamishibai-test-xcb.so.0"


@pytest.mark.parametrize(("environ", "platform", "expected"), [
    ({}, "linux", True),
    ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
    ({"QT_QPA_PLATFORM": "xcb:nograb;wayland"}, "linux", True),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
    ({"QT_QPA_PLATFORM": "wayland;xcb"}, "linux", False),
    ({"XDG_SESSION_TYPE": "wayland"}, "linux", False),
    ({"XDG_SESSION_TYPE": "x11"}, "freebsd14", True),
    ({}, "darwin", False),
    ({}, "win32", False),
])
def test_only_the_xcb_platform_is_checked(environ: dict[str, str], platform: str, expected: bool) -> None:
    assert system_check.uses_xcb(environ, platform) is expected


@pytest.fixture
def fake_list(tmp_path: Path) -> Path:
    listed = tmp_path / "system-packages.txt"
    listed.write_text("setup make bin:make-that-is-not-there\n"
                      f"run {FAKE} lib:{FAKE_SONAME}\n"
                      "run fonts-none font:NoSuchFont.ttf\n"
                      "run libc6 lib:libc.so.6\n", encoding="utf-8")
    return listed


def test_the_message_names_only_the_missing_window_libraries(fake_list: Path) -> None:
    message = system_check.check_window_libraries({"QT_QPA_PLATFORM": "xcb"}, list_path=fake_list)
    assert message is not None
    assert f"  {FAKE} ({FAKE_SONAME}, to run the studio)" in message.splitlines()
    assert "libc6" not in message and "fonts-none" not in message and " make " not in message
    assert "Reinstalling" not in message


def test_offscreen_and_a_complete_system_go_on(fake_list: Path) -> None:
    assert system_check.check_window_libraries({"QT_QPA_PLATFORM": "offscreen"}, list_path=fake_list,
                                               has_library=lambda name: False) is None
    assert system_check.check_window_libraries({"QT_QPA_PLATFORM": "xcb"}, list_path=fake_list,
                                               has_library=lambda name: True) is None
    assert system_check.check_window_libraries({"QT_QPA_PLATFORM": "xcb"}, list_path=fake_list.parent / "none",
                                               has_library=lambda name: False) is None


@pytest.mark.parametrize(("root", "sudo", "apt", "command"), [
    (False, True, True, f"  sudo apt-get update && sudo apt-get install -y --no-install-recommends {FAKE}"),
    (True, False, True, f"  apt-get update && apt-get install -y --no-install-recommends {FAKE}"),
    (False, False, True, f"  apt-get update && apt-get install -y --no-install-recommends {FAKE}"),
])
def test_the_command_fits_the_user(root: bool, sudo: bool, apt: bool, command: str, fake_list: Path) -> None:
    absent = system_check.window_libraries_missing(system_check.read_requirements(fake_list), lambda n: False)
    absent = [r for r in absent if r.package == FAKE]
    message = system_check.window_message(absent, is_root=root, has_sudo=sudo, has_apt=apt)
    assert command in message.splitlines()
    assert ("as root" in message) is (not root and not sudo)


def test_without_apt_get_the_package_manager_is_named(fake_list: Path) -> None:
    absent = system_check.window_libraries_missing(system_check.read_requirements(fake_list), lambda n: False)
    message = system_check.window_message(absent, is_root=False, has_sudo=True, has_apt=False)
    assert "apt-get" not in message and "package manager" in message


def test_the_wheel_carries_the_one_list() -> None:
    """``studio/system-packages.txt`` (package data) is ``packaging/system-packages.txt``."""
    assert system_check.LIST.read_bytes() == (PACKAGING / "system-packages.txt").read_bytes()


WINDOW = """
import sys
from pathlib import Path
from studio import system_check
system_check.LIST = Path(sys.argv[1])
from studio.cli import main
raise SystemExit(main(["open"]))
"""


def test_the_installed_window_is_refused_with_the_apt_get_line(fake_list: Path, tmp_path: Path) -> None:
    site = make_installed_copy(tmp_path / "site-packages")
    assert (site / "studio" / "system-packages.txt").is_file()
    done = run_installed(site, tmp_path, "-c", WINDOW, str(fake_list),
                         extra_env={"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":97", "XDG_SESSION_TYPE": "x11"},
                         timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"apt-get install -y --no-install-recommends {FAKE}" in done.stderr
    assert "Reinstalling the application" not in done.stderr
    assert "Traceback" not in done.stderr
