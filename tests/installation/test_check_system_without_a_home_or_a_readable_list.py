"""packaging/check_system.py runs first on a fresh machine, often in a container: as a user
the system has no passwd entry for and without HOME (`docker run --user 1234`, `env -i`),
looking for fonts in ~/.fonts ended it with a traceback (RuntimeError: Could not determine
home directory); a package list that is not UTF-8 did too (UnicodeDecodeError). The home
folders are now skipped, and a bad list is exit status 2 with one line naming the file."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.installation.conftest import PACKAGING


def _homeless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HOME", raising=False)

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)
    with pytest.raises(RuntimeError):
        Path("~/.fonts").expanduser()  # what the check meets there


def test_fonts_are_looked_for_without_a_home(check_system: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    fonts = tmp_path / "fonts"
    (fonts / "truetype").mkdir(parents=True)
    (fonts / "truetype" / "DejaVuSans.ttf").write_bytes(b"")
    monkeypatch.setattr(check_system, "FONT_DIRS", (str(fonts), "~/.local/share/fonts", "~/.fonts"))
    _homeless(monkeypatch)
    assert check_system.font_installed("any")
    assert check_system.font_installed("DejaVuSans.ttf")
    assert not check_system.font_installed("NotoColorEmoji.ttf")


SYSTEM_PYTHON = Path("/usr/bin/python3")
"""The system's python3, which ``make`` runs the check with (any user may run it)."""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0 or not SYSTEM_PYTHON.is_file(),
                    reason="needs root (to run as an unknown user) and the system's /usr/bin/python3")
def test_the_script_runs_as_an_unknown_user_without_home() -> None:
    folder = Path(tempfile.mkdtemp(prefix="kamishibai-check-"))  # one that user may read (pytest's tmp is 0700)
    try:
        folder.chmod(0o755)
        # the script and the module it reads the list with, laid out as in the checkout
        (folder / "packaging").mkdir()
        (folder / "studio").mkdir()
        shutil.copy(PACKAGING / "check_system.py", folder / "packaging" / "check_system.py")
        for name in ("__init__.py", "system_check.py"):
            shutil.copy(PACKAGING.parent / "studio" / name, folder / "studio" / name)
        # a font no folder has: every font folder is looked in, the home ones too
        (folder / "packages.txt").write_text("run  fonts-none  font:NoSuchFont-Regular.ttf\n")
        for path in folder.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        env = {key: value for key, value in os.environ.items() if key != "HOME"}
        done = subprocess.run([str(SYSTEM_PYTHON), str(folder / "packaging" / "check_system.py"), "run", "--list",
                               str(folder / "packages.txt")],
                              capture_output=True, text=True, env=env, user=54321, group=54321, cwd="/",
                              timeout=120)
    finally:
        shutil.rmtree(folder)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1
    assert "fonts-none (the font NoSuchFont-Regular.ttf, to run the studio)" in done.stderr


def test_a_list_that_is_not_utf8_is_named(check_system: ModuleType, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    listing = tmp_path / "packages.txt"
    listing.write_bytes("run  libgl1  lib:libGL.so.1  # caf\u00e9\n".encode("latin-1"))
    assert check_system.main(["run", "--list", str(listing)]) == 2
    err = capsys.readouterr().err
    assert f"{listing} is not UTF-8 text" in err and "Traceback" not in err
