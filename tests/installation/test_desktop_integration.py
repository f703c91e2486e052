"""The desktop entry, the AppStream metainfo and the icon sizes in packaging/."""

from __future__ import annotations

import configparser
import itertools
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from studio import __version__
from tests.installation.conftest import PACKAGING, load_script

DESKTOP = PACKAGING / "io.kamishibai.Studio.desktop"
METAINFO = PACKAGING / "io.kamishibai.Studio.metainfo.xml"


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian package {package}; `make test` installs it)")
    return path


def test_the_desktop_entry_passes_desktop_file_validate() -> None:
    result = subprocess.run([_tool("desktop-file-validate", "desktop-file-utils"), str(DESKTOP)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "", f"hints or warnings: {result.stdout}"  # not even a hint


def test_the_metainfo_passes_appstreamcli_validate() -> None:
    result = subprocess.run([_tool("appstreamcli", "appstream"), "validate", "--no-net", "--explain", str(METAINFO)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_names_agree_across_the_files() -> None:
    from studio.ui.app_paths import DESKTOP_ID

    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(DESKTOP, encoding="utf-8")
    desktop = entry["Desktop Entry"]
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == DESKTOP_ID == DESKTOP.stem == desktop["Icon"]
    assert root.findtext("launchable") == DESKTOP.name
    assert (PACKAGING / f"{DESKTOP_ID}.svg").is_file()
    assert desktop["Exec"].split()[0] in [b.text for b in root.iter("binary")]
    newest = root.find("releases/release")
    assert newest is not None and newest.get("version") == __version__, "add a <release> for this version"


def test_icons_are_rendered_at_every_size_from_the_svg(tmp_path: Path, qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    make_icons = load_script("make_icons")
    written = make_icons.make_icons(tmp_path)
    sizes = [int(path.parent.parent.name.split("x")[0]) for path in written]
    assert sizes[0] == 16 and sizes[-1] == 512 and {24, 32, 48, 64, 128, 256} <= set(sizes)
    for path, size in zip(written, sizes, strict=True):
        image = QImage(str(path))
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()
        assert image.pixelColor(0, 0).alpha() == 0, "the corners are transparent"
        assert image.pixelColor(size // 2, size // 2).alpha() == 255, "the middle is drawn"
    big = QImage(str(written[-1]))
    # drawn at 512 px, not blown up: the border between the frame and the screen is sharp
    row = [big.pixelColor(x, 256).lightness() for x in range(40, 100)]
    assert max(abs(a - b) for a, b in itertools.pairwise(row)) > 60
    assert (tmp_path / "hicolor" / "scalable" / "apps" / "io.kamishibai.Studio.svg").is_file()
