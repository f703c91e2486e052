"""A project's name reaches the timeline's name and a video's title: a name holding a
right-to-left override (a folder named so, or a name written by another program; the
project keeps it as it is) showed what followed it reversed there ("Story \u202eFDP.exe" read
"Story exe.PDF"). The export shows the name as it shows turn text: without overrides."""

from __future__ import annotations

import subprocess
from pathlib import Path

import opentimelineio as otio

from studio.export import ExportOptions, export_branch
from studio.storage import Project
from studio.storage.media import ffmpeg_exe

from .helpers import COLOURS, add_turn

NAME = "Story \u202eFDP.exe\u202c \u2067tail"


def _project(tmp_path: Path) -> tuple[Project, str]:
    """A project whose stored name holds the overrides (written by another program: the studio
    refuses such a name itself), reopened as a user opens it."""
    with Project.create(tmp_path / "story", name="Story") as project:
        leaf = add_turn(project, project.tree.root_id, "Character: Qiqi; Motion: wave; Background: day town.",
                        COLOURS[0])
        project.database.set_meta("name", NAME)
    project = Project.open(tmp_path / "story")
    assert project.database.meta()["name"] == NAME, "the file keeps its value"
    return project, leaf


def test_otio_timeline_name_has_no_override(tmp_path: Path) -> None:
    project, leaf = _project(tmp_path)
    timeline = otio.adapters.read_from_file(str(export_branch(project, leaf, tmp_path / "e.otio").path))
    assert timeline.name == "Story FDP.exe tail"
    assert timeline.metadata["kamishibai"]["project"] == "Story FDP.exe tail"


def test_video_title_has_no_override(tmp_path: Path) -> None:
    project, leaf = _project(tmp_path)
    out = export_branch(project, leaf, tmp_path / "e.mp4", options=ExportOptions(crf=23)).path  # re-encoded: titled
    probe = subprocess.run([ffmpeg_exe(), "-hide_banner", "-i", str(out), "-f", "ffmetadata", "-"],
                           capture_output=True, text=True, encoding="utf-8").stdout
    titles = [line.removeprefix("title=") for line in probe.splitlines() if line.startswith("title=")]
    assert titles == ["Story FDP.exe tail"]
