"""A project this user may not read (copied from another account, a ``chmod 000``) is refused
saying so: permission denied, naming the file or folder and how to get access. QA: a
``project.db`` without read permission was called "a read-only project folder" with the
hint that reading commands still work (they did not: `info` itself failed), and a folder
that can't be looked into was "not a Kamishibai project (it has no project.db)".

Root reads every file, so the project is opened in a child process without the power to
pass over file permissions (``setpriv``), as an ordinary user would open it."""

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

OPENER = """
    import json, sys
    from studio.storage import Project
    from studio.storage.errors import ProjectFileError, ProjectReadOnlyError

    said = {}
    for read_only in (True, False):
        try:
            Project.open(sys.argv[1], read_only=read_only).close()
            said[str(read_only)] = {"kind": "opened"}
        except ProjectFileError as error:
            said[str(read_only)] = {"kind": type(error).__name__, "read_only": isinstance(error, ProjectReadOnlyError),
                                    "message": error.message, "hint": error.hint}
    print(json.dumps(said))
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="permissions as Linux has them")


def _open_as_a_user(folder: Path) -> dict[str, dict[str, object]]:
    command = [sys.executable, "-c", textwrap.dedent(OPENER), str(folder)]
    command = as_a_user(command)
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr
    said: dict[str, dict[str, object]] = json.loads(done.stdout)
    return said


def _project(tmp_path: Path) -> Path:
    Project.create(tmp_path / "story.kamishibai").close()
    return tmp_path / "story.kamishibai"


def _says_permission_denied(said: dict[str, dict[str, object]], unreadable: Path, folder: Path) -> None:
    for report in said.values():
        message, hint = str(report.get("message")), str(report.get("hint"))
        assert report["kind"] == "ProjectFileError" and not report["read_only"], report
        assert f"permission denied: this user may not read {unreadable}." in message, message
        assert "no project.db" not in message and "read-only" not in message
        assert "still work" not in hint and f"chmod -R u+rwX {folder}" in hint, hint


def test_a_database_this_user_may_not_read(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    db = folder / "project.db"
    before, files = db.read_bytes(), sorted(folder.iterdir())
    db.chmod(0)
    try:
        said = _open_as_a_user(folder)
    finally:
        db.chmod(0o644)
    _says_permission_denied(said, db, folder)
    assert db.read_bytes() == before
    assert sorted(folder.iterdir()) == files  # no WAL, no journal made


def test_a_project_folder_this_user_may_not_look_into(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    folder.chmod(0)
    try:
        said = _open_as_a_user(folder)
    finally:
        folder.chmod(0o755)
    _says_permission_denied(said, folder, folder)
