"""`bundle` refused a .zip inside its own project folder but wrote one into another
project's media folder, where that project knows nothing of it (export, sketch-sheet, new
and unbundle all refuse such a place). Now it is refused the same way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def test_bundle_into_another_projects_folder_is_refused(tmp_path: Path) -> None:
    mine, other = tmp_path / "s1.kamishibai", tmp_path / "s2.kamishibai"
    for project in (mine, other):
        assert kamishibai("new", str(project)).returncode == 0
    out = other / "media" / "x.zip"
    refused = kamishibai("bundle", str(mine), str(out))
    assert refused.returncode == 2, refused.stderr
    assert f"inside the project folder {other}" in refused.stderr
    assert not out.exists()
    beside = kamishibai("bundle", str(mine), str(tmp_path / "x.zip"))
    assert beside.returncode == 0, beside.stderr
    assert (tmp_path / "x.zip").is_file()
