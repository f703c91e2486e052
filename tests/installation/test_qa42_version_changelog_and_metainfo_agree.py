"""The version lives in one place (``studio.__version__``) and what tells users about it
follows: ``kamishibai --version``, the newest CHANGELOG.md entry and the newest metainfo
release. It still read 0.1.0 after much had shipped; a project written by 0.1.0 still opens,
for writing too, with this version.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from studio import __version__
from studio.storage import Project

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "project-v0.1.0.zip"


def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def test_the_changelog_and_metainfo_name_this_version_first() -> None:
    headings = re.findall(r"^## (\d+\.\d+\.\d+) \((\d{4}-\d\d-\d\d)\)$",
                          (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert headings and headings[0][0] == __version__, headings
    assert [_numbers(v) for v, _ in headings] == sorted((_numbers(v) for v, _ in headings), reverse=True)
    releases = ET.parse(ROOT / "packaging" / "io.kamishibai.Studio.metainfo.xml").getroot().find("releases")
    assert releases is not None
    listed = [(r.get("version"), r.get("date")) for r in releases]
    assert listed == headings, "CHANGELOG.md and the metainfo list the same releases, with the same dates"


def test_version_is_past_the_first_release() -> None:
    assert _numbers(__version__) > (0, 1, 0)
    done = subprocess.run([sys.executable, "-m", "studio", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"kamishibai {__version__}"


def test_a_project_written_by_0_1_0_opens_for_writing(tmp_path: Path) -> None:
    with zipfile.ZipFile(FIXTURE) as archive:
        archive.extractall(tmp_path)
    folder = tmp_path / "v1-story.kamishibai"
    with Project.open(folder) as project:
        turns = len(project.tree.nodes)
        assert turns > 1
    with Project.open(folder, read_only=True) as project:
        assert len(project.tree.nodes) == turns
