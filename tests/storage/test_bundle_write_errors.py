"""Where `kamishibai bundle` can't write, the message names the bundle's folder, not the
project (QA: `bundle P ro/x.zip` on a read-only disk said "the project folder ro is
read-only", with a hint about the project's reading commands; `bundle P /proc/x.zip` said
only "No such file or directory")."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest

from studio.storage import Project
from studio.storage import bundle as bundle_module
from studio.storage.bundle import export_bundle
from studio.storage.errors import ProjectFileError, ProjectReadOnlyError

needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


def test_a_read_only_destination_is_named_as_the_bundles_folder(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Root ignores permission bits, so the read-only disk is the file system's answer, faked."""
    dest = tmp_path / "ro"
    dest.mkdir()
    def zip_file(file: object, *args: object, **kwargs: object) -> object:
        if isinstance(file, Path) and file.parent == dest:
            raise OSError(errno.EROFS, "Read-only file system", str(file))
        return real_zip(file, *args, **kwargs)

    real_zip = bundle_module.zipfile.ZipFile
    monkeypatch.setattr(bundle_module.zipfile, "ZipFile", zip_file)
    with Project.create(tmp_path / "story") as project, pytest.raises(ProjectReadOnlyError) as raised:
        export_bundle(project, dest / "story.zip")
    message = str(raised.value)
    assert f"the folder {dest} can't be written (it is on a read-only disk)" in message, message
    assert "project folder" not in message, message
    assert "Reading commands" not in raised.value.hint and "Choose a folder you can write to" in raised.value.hint
    assert list(dest.iterdir()) == []


def test_an_unreadable_project_file_is_named_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with Project.create(tmp_path / "story") as project:
        poster = project.path / "media" / "takes" / "abc" / "poster.png"
        poster.parent.mkdir(parents=True)
        poster.write_bytes(b"png")

        def unreadable(archive: object, filename: object, *args: object, **kwargs: object) -> None:
            raise PermissionError(errno.EACCES, "Permission denied", str(filename))

        monkeypatch.setattr(bundle_module, "_pack_file", unreadable)
        with pytest.raises(ProjectFileError) as raised:
            export_bundle(project, out / "story.zip")
    message = str(raised.value)
    assert f"the project file {poster} can't be read (Permission denied)" in message, message
    assert "read-only" not in message and not isinstance(raised.value, ProjectReadOnlyError)
    assert list(out.iterdir()) == []


@needs_proc
def test_bundle_into_proc_says_the_folder_cant_be_written(tmp_path: Path) -> None:
    with Project.create(tmp_path / "story"):
        pass
    done = subprocess.run([sys.executable, "-m", "studio", "bundle", str(tmp_path / "story.kamishibai"),
                           "/proc/kamishibai-qa.zip"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout
    assert "the folder /proc can't be written" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
