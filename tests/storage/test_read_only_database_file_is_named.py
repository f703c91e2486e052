"""A ``project.db`` that can't be written in a folder that can (``chmod a-w project.db``, a
file copied off a read-only medium) is named as what is read-only. QA: the change was
refused saying "the project folder ... is read-only", and the user made the folder writable
to no effect. Nothing is changed in the file.

Root writes every file, so the project is changed in a child process without the power to
pass over file permissions (``setpriv``), as an ordinary user would change it."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studio.storage import Project
from tests.user_limits import as_a_user

REPO = Path(__file__).resolve().parents[2]

EDITOR = """
    import json, sys
    from studio.core import AddTurn
    from studio.storage import Project
    from studio.storage.errors import ProjectFileError, ProjectReadOnlyError

    try:
        with Project.open(sys.argv[1]) as project:
            project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town"))
        said = {"kind": "changed"}
    except ProjectFileError as error:
        said = {"kind": type(error).__name__, "read_only": isinstance(error, ProjectReadOnlyError),
                "message": error.message, "hint": error.hint}
    print(json.dumps(said))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="permissions as Linux has them")
def test_a_read_only_database_in_a_writable_folder_is_named(tmp_path: Path) -> None:
    Project.create(tmp_path / "story.kamishibai").close()
    folder = tmp_path / "story.kamishibai"
    db = folder / "project.db"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    db.chmod(0o444)
    command = [sys.executable, "-c", textwrap.dedent(EDITOR), str(folder)]
    command = as_a_user(command)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO, check=False)
    finally:
        db.chmod(0o644)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["kind"] == "ProjectReadOnlyError", said
    assert f"{db} is read-only (its folder is not)." in said["message"], said["message"]
    assert "project folder" not in said["message"]
    assert f"chmod u+w {db}" in said["hint"], said["hint"]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
