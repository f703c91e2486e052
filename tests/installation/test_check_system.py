"""The system-package check behind `make run` and `make test` (packaging/check_system.py)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests.installation.conftest import PACKAGING, REPO

FAKE = "libkamishibai-fake0"
FAKE_SONAME = "libkamishibai-fake.so.0"


def probes(check_system: ModuleType, missing_libs: set[str] = frozenset(), missing_bins: set[str] = frozenset(),
           font: bool = True, cjk_font: bool = True):  # type: ignore[no-untyped-def]
    return check_system.Probes(has_library=lambda name: name not in missing_libs,
                               has_program=lambda name: name not in missing_bins,
                               has_module=lambda name: True,
                               has_font=lambda target: font and (cjk_font or target == "any"))


def host(check_system: ModuleType, *, root: bool = False, sudo: bool = True, apt: bool = True,
         tty: bool = False):  # type: ignore[no-untyped-def]
    return check_system.Host(is_root=root, has_sudo=sudo, has_apt=apt, interactive=tty)


class Recorder:
    def __init__(self, status: int = 0) -> None:
        self.commands: list[list[str]] = []
        self.messages: list[str] = []
        self.status = status

    def run(self, argv: list[str]) -> int:
        self.commands.append(argv)
        return self.status

    def say(self, text: str) -> None:
        self.messages.append(text)


@pytest.fixture
def requirements(check_system: ModuleType):  # type: ignore[no-untyped-def]
    return check_system.read_requirements(check_system.DEFAULT_LIST)


def test_the_list_parses_and_names_what_qt_needs(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    by_package = {r.package: r for r in requirements}
    assert by_package["libxcb-cursor0"].probe == "lib:libxcb-cursor.so.0"
    assert by_package["libxcb-icccm4"].need == "run"
    assert by_package["xvfb"].probe == "bin:Xvfb" and by_package["xvfb"].need == "test"
    assert {"desktop-file-utils", "appstream", "python3-venv", "make"} <= set(by_package)
    assert len(by_package) == len(requirements), "a package is listed twice"


def test_every_system_library_of_qts_xcb_plugin_is_listed(requirements) -> None:  # type: ignore[no-untyped-def]
    """ldd of PySide6's xcb plugin: each library it takes from the system is in the list.
    Fails when a PySide6 upgrade starts loading a library nobody installs."""
    import PySide6

    plugin_dir = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms"
    binaries = [plugin_dir / "libqxcb.so", Path(PySide6.__file__).parent / "Qt" / "lib" / "libQt6XcbQpa.so.6",
                Path(PySide6.__file__).parent / "Qt" / "lib" / "libQt6Gui.so.6"]
    if shutil.which("ldd") is None or not all(b.is_file() for b in binaries):
        pytest.skip("needs ldd and PySide6's Linux xcb plugin")
    base = ("libc.so", "libm.so", "libstdc++.so", "libgcc_s.so", "ld-linux", "libz.so", "libzstd.so",
            "libpthread.so", "libdl.so", "librt.so", "linux-vdso.so", "libgthread-2.0.so", "libpcre2",
            "libXau.so", "libXdmcp.so", "libbsd.so", "libmd.so", "libffi.so", "libexpat.so", "libpng16.so",
            "libbrotli", "libGLdispatch.so", "libGLX.so", "libuuid.so", "libsystemd.so", "libcap.so",
            "libgcrypt.so", "libgpg-error.so", "liblzma.so", "liblz4.so", "libxml2.so", "libicu", "libbz2.so",
            "libxcb-xinput.so", "libxcb-dri")  # always present, pulled in by a listed package, or indirect
    listed = {r.target for r in requirements if r.kind == "lib"}
    pyside = Path(PySide6.__file__).parent
    unlisted = set()
    for binary in binaries:
        output = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout
        for line in output.splitlines():
            match = re.match(r"\s*(\S+)\s+=>\s+(.*)", line)
            if not match:
                continue
            soname, where = match.groups()
            if str(pyside) in where or soname.startswith(base) or soname.startswith("libQt6"):
                continue
            if soname not in listed:
                unlisted.add(soname)
    assert not unlisted, f"system libraries Qt loads that packaging/system-packages.txt does not list: {unlisted}"


def test_a_bad_line_names_the_file_and_line(check_system: ModuleType, tmp_path: Path) -> None:
    bad = tmp_path / "list.txt"
    bad.write_text("# comment\nrun libgl1 lib:libGL.so.1\nrun libgl1 libGL.so.1\n")
    with pytest.raises(check_system.ListError, match=r"list.txt:3: PROBE"):
        check_system.read_requirements(bad)
    bad.write_text("later libgl1 lib:libGL.so.1\n")
    with pytest.raises(check_system.ListError, match=r"list.txt:1: NEED"):
        check_system.read_requirements(bad)


def test_missing_follows_the_need(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    fake = probes(check_system, missing_libs={"libxcb-icccm.so.4"}, missing_bins={"Xvfb"})
    assert [r.package for r in check_system.missing(requirements, "run", fake)] == ["libxcb-icccm4"]
    assert [r.package for r in check_system.missing(requirements, "test", fake)] == ["libxcb-icccm4", "xvfb"]
    assert check_system.missing(requirements, "setup", fake) == []
    assert check_system.missing(requirements, "test", probes(check_system)) == []
    nofont = check_system.missing(requirements, "run", probes(check_system, font=False))
    assert [r.package for r in nofont] == ["fonts-dejavu-core", "fonts-droid-fallback", "fonts-nanum",
                                             "fonts-noto-color-emoji"]
    no_cjk = check_system.missing(requirements, "run", probes(check_system, cjk_font=False))
    assert [r.describe() for r in no_cjk] == [
        "fonts-droid-fallback (one of the fonts DroidSansFallbackFull.ttf, NotoSansCJK-Regular.ttc, "
        "NotoSansCJKjp-Regular.otf, wqy-microhei.ttc, wqy-zenhei.ttc, to run the studio)",
        "fonts-nanum (one of the fonts NanumGothic.ttf, NanumBarunGothic.ttf, NotoSansCJK-Regular.ttc, "
        "NotoSansCJKkr-Regular.otf, NotoSansKR-Regular.otf, UnDotum.ttf, to run the studio)",
        "fonts-noto-color-emoji (the font NotoColorEmoji.ttf, to run the studio)"]


def test_a_font_probe_finds_font_files_by_name(check_system: ModuleType, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    monkeypatch.setattr(check_system, "FONT_DIRS", (str(tmp_path),))
    assert not check_system.font_installed("any")
    (tmp_path / "deep" / "er" / "wqy-microhei.ttc").write_bytes(b"")
    assert check_system.font_installed("any")
    assert check_system.font_installed("DroidSansFallbackFull.ttf,wqy-microhei.ttc")
    assert not check_system.font_installed("DroidSansFallbackFull.ttf")


def test_nothing_missing_does_nothing(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder()
    assert check_system.ensure("test", requirements, yes=True, probes=probes(check_system),
                               host=host(check_system), run=rec.run, say=rec.say) == 0
    assert rec.commands == [] and rec.messages == []


def test_without_a_terminal_it_stops_with_the_exact_command(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder()
    fake = probes(check_system, missing_libs={"libxcb-icccm.so.4", "libxcb-keysyms.so.1"}, missing_bins={"Xvfb"})
    status = check_system.ensure("test", requirements, yes=False, probes=fake, host=host(check_system),
                                 run=rec.run, say=rec.say, again="make test")
    assert status == 1 and rec.commands == []
    (message,) = rec.messages
    assert ("sudo apt-get update && sudo apt-get install -y --no-install-recommends "
            "libxcb-icccm4 libxcb-keysyms1 xvfb") in message
    assert "libxcb-icccm.so.4" in message and "the Xvfb command" in message
    assert "make test YES=1" in message


def test_root_gets_the_command_without_sudo(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder()
    check_system.ensure("run", requirements, yes=False, probes=probes(check_system, {"libxcb-icccm.so.4"}),
                        host=host(check_system, root=True), run=rec.run, say=rec.say)
    assert "\n  apt-get update && apt-get install -y --no-install-recommends libxcb-icccm4\n" in rec.messages[0]


def test_without_sudo_it_asks_for_root(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder()
    status = check_system.ensure("run", requirements, yes=True, probes=probes(check_system, {"libxcb-icccm.so.4"}),
                                 host=host(check_system, sudo=False), run=rec.run, say=rec.say)
    assert status == 1 and rec.commands == []
    assert "Install them as root with:\n  apt-get update && apt-get install" in rec.messages[0]


def test_without_apt_it_names_the_libraries(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder()
    status = check_system.ensure("run", requirements, yes=True, probes=probes(check_system, {"libxcb-icccm.so.4"}),
                                 host=host(check_system, apt=False), run=rec.run, say=rec.say)
    assert status == 1 and rec.commands == []
    assert "no apt-get" in rec.messages[0] and "libxcb-icccm.so.4" in rec.messages[0]


def test_yes_installs_through_sudo_and_checks_again(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder()
    status = check_system.ensure("test", requirements, yes=True,
                                 probes=probes(check_system, {"libxcb-icccm.so.4"}, {"Xvfb"}),
                                 host=host(check_system), run=rec.run, say=rec.say,
                                 reprobe=lambda: probes(check_system))
    assert status == 0
    update, install = rec.commands
    assert update[:2] == ["sudo", "-n"] and update[-2:] == ["apt-get", "update"]  # no one to type a password
    assert install[:2] == ["sudo", "-n"] and install[-2:] == ["libxcb-icccm4", "xvfb"]
    assert "--no-install-recommends" in install and "DEBIAN_FRONTEND=noninteractive" in install


def test_a_terminal_is_asked_first(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    questions: list[str] = []
    for answer, expected in (("n", 1), ("", 0), ("yes", 0)):
        rec = Recorder()

        def ask(question: str, answer: str = answer) -> str:
            questions.append(question)
            return answer

        status = check_system.ensure("run", requirements, yes=False, probes=probes(check_system, {"libxcb-icccm.so.4"}),
                                     host=host(check_system, tty=True), run=rec.run, say=rec.say, ask=ask,
                                     reprobe=lambda: probes(check_system))
        assert status == expected
        assert bool(rec.commands) == (expected == 0)
        if rec.commands:
            assert rec.commands[1][0] == "sudo" and rec.commands[1][1] != "-n"  # sudo may ask for the password
    assert "libxcb-icccm4 (libxcb-icccm.so.4" in questions[0] and "[Y/n]" in questions[0]


def test_a_failed_or_incomplete_install_says_so(check_system: ModuleType, requirements) -> None:  # type: ignore[no-untyped-def]
    rec = Recorder(status=100)
    missing = probes(check_system, {"libxcb-icccm.so.4"})
    assert check_system.ensure("run", requirements, yes=True, probes=missing, host=host(check_system, root=True),
                               run=rec.run, say=rec.say) == 1
    assert len(rec.commands) == 1 and "failed (exit status 100)" in rec.messages[-1]
    rec = Recorder()
    assert check_system.ensure("run", requirements, yes=True, probes=missing, host=host(check_system, root=True),
                               run=rec.run, say=rec.say, reprobe=lambda: missing) == 1
    assert "still missing" in rec.messages[-1]


def test_the_real_lookup_finds_libc_and_not_a_made_up_library(check_system: ModuleType) -> None:
    lookup = check_system.system_library_lookup()
    assert lookup("libc.so.6")
    assert not lookup(FAKE_SONAME)


@pytest.mark.parametrize("target", ["test", "run"])
def test_make_stops_before_installing_or_running_anything(target: str, tmp_path: Path) -> None:
    """`make test` (and `make run`) with a library missing and no terminal: one message with
    the command, exit status non-zero, no .venv created, pytest (or the window) never started."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    packages = tmp_path / "system-packages.txt"
    packages.write_text((PACKAGING / "system-packages.txt").read_text() + f"run {FAKE} lib:{FAKE_SONAME}\n")
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "YES")}
    result = subprocess.run(["make", "--no-print-directory", "-C", str(REPO), target, f"VENV={venv}",
                             f"SYSTEM_PACKAGES={packages}"], stdin=subprocess.DEVNULL, capture_output=True,
                            text=True, env=env, timeout=120)
    assert result.returncode != 0
    assert f"{FAKE} ({FAKE_SONAME}, to run the studio)" in result.stderr
    assert re.search(rf"apt-get install -y --no-install-recommends [\w .+-]*{FAKE}", result.stderr), result.stderr
    assert f"make {target} YES=1" in result.stderr
    assert not venv.exists(), "make went on to create the venv"
    assert "pytest" not in result.stdout + result.stderr and "kamishibai" not in result.stdout
