"""The writer lock: one writer per project, readers always welcome, nothing left locked."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studio.core import AddTurn
from studio.storage import Project, ProjectFileError
from studio.storage.lock import LOCK_NAME, ProjectLockedError, WriterLock, holder_of, set_process_label

LINE = "Character: Qiqi; Motion: run; Background: day town"


def _try_open_elsewhere(path: Path, wait: float = 0.0) -> subprocess.CompletedProcess[str]:
    code = ("import sys\nfrom studio.storage import Project\n"
            "try:\n    Project.open(sys.argv[1], wait=float(sys.argv[2])).close()\n"
            "except Exception as e:\n    print(type(e).__name__, e)\n    sys.exit(3)\n")
    return subprocess.run([sys.executable, "-c", code, str(path), str(wait)], capture_output=True, text=True,
                          timeout=60)


def test_a_second_writer_in_the_same_process_is_told_at_once(project: Project) -> None:
    start = time.monotonic()
    with pytest.raises(ProjectLockedError, match="already open for writing in this process"):
        Project.open(project.path, wait=30)
    assert time.monotonic() - start < 1
    with Project.open(project.path, read_only=True) as reader:
        assert reader.tree.root_id == project.tree.root_id
        with pytest.raises(ProjectFileError, match="opened for reading only"):
            reader.apply(AddTurn(reader.tree.root_id, LINE))


def test_another_process_is_refused_with_the_holder_named(tmp_path: Path) -> None:
    set_process_label("the lock test")
    try:
        project = Project.create(tmp_path / "p")
    finally:
        set_process_label("")
    try:
        refused = _try_open_elsewhere(project.path)
        assert refused.returncode == 3
        assert "ProjectLockedError" in refused.stdout and "the lock test" in refused.stdout
        assert f"process {os.getpid()}" in refused.stdout
        holder = holder_of(project.path)
        assert holder is not None and holder.pid == os.getpid()
    finally:
        project.close()


def test_closing_lets_the_next_writer_in(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "p")
    project.close()
    assert holder_of(project.path) is None
    assert _try_open_elsewhere(project.path).returncode == 0


def test_a_waiting_writer_gets_in_when_the_holder_closes(tmp_path: Path) -> None:
    project = Project.create(tmp_path / "p")
    waiter = subprocess.Popen([sys.executable, "-c",
                               "import sys\nfrom studio.storage import Project\n"
                               "Project.open(sys.argv[1], wait=30).close()\nprint('in')\n", str(project.path)],
                              stdout=subprocess.PIPE, text=True)
    time.sleep(1.0)
    assert waiter.poll() is None, "the waiter did not wait"
    project.close()
    out, _ = waiter.communicate(timeout=30)
    assert waiter.returncode == 0 and out.strip() == "in"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_does_not_keep_the_lock(tmp_path: Path) -> None:
    """A child forked while the lock is held (an engine host, say) must not hold it on
    after its parent lets go."""
    project = Project.create(tmp_path / "p")
    pid = os.fork()
    if pid == 0:  # the child: outlive the parent's hold, then exit without cleanup
        time.sleep(4)
        os._exit(0)
    try:
        project.close()
        assert _try_open_elsewhere(project.path).returncode == 0
    finally:
        os.waitpid(pid, 0)


def test_the_lock_file_is_never_removed(tmp_path: Path) -> None:
    """Unlinking a lock file while someone waits on it would let two writers in."""
    project = Project.create(tmp_path / "p")
    project.close()
    assert (project.path / LOCK_NAME).is_file()
    lock = WriterLock.acquire(project.path)
    lock.release()
    lock.release()  # idempotent
    assert (project.path / LOCK_NAME).is_file()


@pytest.mark.parametrize("kind", ["link to a file", "dangling link", "fifo"])
def test_a_planted_lock_file_is_refused_and_nothing_outside_is_written(tmp_path: Path, kind: str) -> None:
    """A writer.lock symlink made opening for writing truncate (and write) its target."""
    Project.create(tmp_path / "story").close()
    folder = tmp_path / "story.kamishibai"
    victim = tmp_path / "victim.txt"
    lock = folder / LOCK_NAME
    lock.unlink()
    if kind == "link to a file":
        victim.write_text("precious")
        lock.symlink_to(victim)
    elif kind == "dangling link":
        lock.symlink_to(victim)
    else:
        os.mkfifo(lock)
    with pytest.raises(ProjectFileError, match="lock file writer.lock is (a symbolic link|a pipe)"):
        Project.open(folder)
    if kind == "link to a file":
        assert victim.read_text() == "precious"
    else:
        assert not victim.exists()
    assert holder_of(folder) is None
    Project.open(folder, read_only=True).close()  # reading needs no lock


def test_a_folder_in_place_of_the_lock_file_is_named_with_the_cure(tmp_path: Path) -> None:
    """QA: "Can't open the project for writing: Is a directory." named neither the path nor a fix."""
    Project.create(tmp_path / "story").close()
    folder = tmp_path / "story.kamishibai"
    lock = folder / LOCK_NAME
    lock.unlink()
    lock.mkdir()
    with pytest.raises(ProjectFileError) as raised:
        Project.open(folder)
    assert f"lock file {LOCK_NAME} is a folder" in raised.value.message
    assert str(folder) in raised.value.message
    assert f"remove the folder {lock}" in raised.value.hint and "try again" in raised.value.hint
    lock.rmdir()
    Project.open(folder).close()
