"""A take's folder made read-only (``chmod -R a-w`` on the project while it generates, or a
disk remounted read-only) refuses the clip as it refuses the poster: a read-only error that
names the folder as the project's and says what to do, not ffmpeg's bare "Error opening
output files: Permission denied". ffmpeg writes the clip itself, so its words are what the
system said; they are read back into the same error a Python write gets.

Root writes into read-only folders, so as root the writer runs in a child process without
the power to pass over file permissions (``setpriv``), as an ordinary user would."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studio.storage import Project
from tests.user_limits import as_a_user

REPO = Path(__file__).resolve().parents[2]

WRITER = """
    import json, sys
    from pathlib import Path
    import numpy as np
    from studio.storage.errors import ProjectFileError, ProjectReadOnlyError
    from studio.storage.media import write_clip, write_poster

    folder = Path(sys.argv[1])
    frames = np.full((6, 32, 48, 3), 90, dtype=np.uint8)
    said = {}
    for name, write in (("clip", lambda: write_clip(folder / "clip.mp4", frames, 8.0)),
                        ("poster", lambda: write_poster(folder / "poster.png", frames[0]))):
        try:
            write()
            said[name] = {"kind": "written"}
        except ProjectFileError as error:
            said[name] = {"kind": type(error).__name__, "read_only": isinstance(error, ProjectReadOnlyError),
                          "message": error.message, "hint": error.hint}
        except Exception as error:
            said[name] = {"kind": type(error).__name__, "message": str(error)}
    print(json.dumps(said))
"""


def _write_into(folder: Path) -> dict[str, dict[str, object]]:
    command = [sys.executable, "-c", textwrap.dedent(WRITER), str(folder)]
    command = as_a_user(command)
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr
    said: dict[str, dict[str, object]] = json.loads(done.stdout)
    return said


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="permissions as Linux has them")
def test_a_clip_refused_by_a_read_only_take_folder_says_so_as_the_poster_does(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story.kamishibai")
    project.close()
    folder = project.path / "media" / "takes" / "0123456789"
    folder.mkdir(parents=True)
    folder.chmod(0o555)
    try:
        said = _write_into(folder)
    finally:
        folder.chmod(0o755)
    assert list(folder.iterdir()) == []  # nothing half-written left behind
    for name, file in (("clip", "clip.mp4"), ("poster", "poster.png")):
        report = said[name]
        assert report["kind"] == "ProjectReadOnlyError", report
        message = str(report["message"])
        assert message.startswith(f"Can't write {file}: "), message
        assert "media/takes/0123456789/" in message and str(folder) in message and "read-only" in message
        assert "project folder" not in message  # a take's folder is not the project's folder
        assert "make this one writable" in str(report["hint"])
    assert "ffmpeg" not in str(said["clip"]["message"])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="permissions as Linux has them")
def test_a_take_folder_that_could_not_be_made_names_the_folder_above_it(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "story.kamishibai")
    project.close()
    takes = project.path / "media" / "takes"
    takes.mkdir(parents=True, exist_ok=True)
    takes.chmod(0o555)
    try:
        said = _write_into(takes / "0123456789")
    finally:
        takes.chmod(0o755)
    assert list(takes.iterdir()) == []
    for report in said.values():
        assert report["kind"] == "ProjectReadOnlyError", report
        message = str(report["message"])
        assert f"the project's folder media/takes/ ({takes}) is read-only" in message, message
        assert "0123456789" not in message  # a folder that was never made is not the one to fix
