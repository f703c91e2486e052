"""`kamishibai bundle` past a file-size limit (``ulimit -f``) said "internal error:
OperationalError: disk I/O error": SQLite's copy of the database into the bundle's snapshot
failed, and that error was not said as the limit it is. It now says the limit was reached,
exits with 1 (a disk without room), leaves no bundle (nor a half-written one, nor the
snapshot's folder) behind, and leaves the project as it was."""

from __future__ import annotations

import hashlib
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from studio.core import AddTurn
from studio.storage import Project

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 32 * 1024


def _project(folder: Path) -> Path:
    """A project whose database is larger than :data:`LIMIT`."""
    with Project.create(folder) as project:
        parent = project.tree.root_id
        for number in range(60):
            project.apply(AddTurn(parent, f"Character: Qiqi; Motion: run {number} {'far ' * 40}; "
                                  "Background: day town", node_id=f"n{number}"))
            parent = f"n{number}"
        path = project.path
    assert (path / "project.db").stat().st_size > LIMIT
    return path


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _bundle(path: Path, out: Path, *, limited: bool) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", "bundle", str(path), str(out)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT, preexec_fn=_limited if limited else None,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def test_bundle_past_the_file_size_limit_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    path = _project(tmp_path / "story")
    before = hashlib.sha256((path / "project.db").read_bytes()).hexdigest()
    media = sorted(p.relative_to(path) for p in (path / "media").rglob("*"))
    out_folder = tmp_path / "out"
    out_folder.mkdir()

    done = _bundle(path, out_folder / "story.zip", limited=True)

    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr and "file-size limit" in done.stderr, done.stderr
    assert str(out_folder / "story.zip") in done.stderr and "ulimit -f unlimited" in done.stderr, done.stderr
    assert list(out_folder.iterdir()) == []
    assert hashlib.sha256((path / "project.db").read_bytes()).hexdigest() == before
    assert sorted(p.relative_to(path) for p in (path / "media").rglob("*")) == media

    done = _bundle(path, out_folder / "story.zip", limited=False)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in out_folder.iterdir()] == ["story.zip"]
