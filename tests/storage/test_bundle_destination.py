"""Where a bundle is unpacked (or a project made) is checked in the order that names the real
cause: a folder that can't be written is said to be one, before any free-space figure (QA:
`unbundle x.zip /proc/foo` said the disk holding /proc had 0.0 MB free)."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage import errors as storage_errors
from studio.storage import staging as staging_module
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.errors import DiskFullError, ProjectFileError, ProjectReadOnlyError

needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    with Project.create(tmp_path / "source") as project:
        return export_bundle(project, tmp_path / "story.zip")


@needs_proc
@pytest.mark.parametrize("dest", ["/proc/kamishibai-qa", "/proc/kamishibai-qa/deeper"])
def test_unbundle_into_proc_says_the_folder_cant_be_written(bundle: Path, dest: str) -> None:
    with pytest.raises(ProjectFileError) as raised:
        import_bundle(bundle, Path(dest))
    message = str(raised.value)
    assert "the folder /proc can't be written" in message, message
    assert "free" not in message and "MB" not in message, message
    assert "choose a folder you can write to" in raised.value.hint.lower()
    done = kamishibai("unbundle", str(bundle), dest)
    assert done.returncode == 2, done.stdout
    assert "the folder /proc can't be written" in done.stderr and " free" not in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


@needs_proc
def test_new_in_proc_says_the_folder_cant_be_written() -> None:
    done = kamishibai("new", "/proc/kamishibai-qa")
    assert done.returncode == 2, done.stdout
    assert "the folder /proc can't be written" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


def test_a_file_in_the_way_is_named(bundle: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("mine")
    with pytest.raises(ProjectFileError) as raised:
        import_bundle(bundle, blocker / "sub" / "copy")
    assert f"{blocker} is not a folder" in str(raised.value)
    assert blocker.read_text() == "mine"


def test_a_read_only_folder_is_said_to_be_one_before_the_free_space(bundle: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Root ignores permission bits, so the read-only disk is the file system's answer, faked."""
    dest = tmp_path / "ro" / "copy"
    dest.parent.mkdir()

    def read_only(self: object, parent: Path, prefix: str) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(parent / prefix))

    monkeypatch.setattr(staging_module.StagingDir, "__init__", read_only)
    monkeypatch.setattr(storage_errors, "free_bytes", lambda folder: 0)  # no room either: not the cause named
    with pytest.raises(ProjectReadOnlyError) as raised:
        import_bundle(bundle, dest)
    message = str(raised.value)
    assert f"the folder {dest.parent} can't be written (it is on a read-only disk)" in message, message
    assert "project folder" not in message and "MB free" not in message


def test_a_full_disk_is_still_said_to_be_full_and_leaves_nothing(bundle: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    dest = tmp_path / "small" / "copy"
    dest.parent.mkdir()
    monkeypatch.setattr(storage_errors, "free_bytes", lambda folder: 1024)
    with pytest.raises(DiskFullError) as raised:
        import_bundle(bundle, dest)
    assert "MB free" in str(raised.value) and "Nothing was unpacked" in raised.value.hint
    assert list(dest.parent.iterdir()) == [], "the work folder made to check the folder is removed"
