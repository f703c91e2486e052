"""Replacing a file that is locked (``chattr +i`` on Linux; Finder's "Locked" on macOS, a
read-only file on Windows) is refused before anything is made, naming that file.

An export with --force went through the whole encoding and then failed on the rename with
"Can't write to FOLDER: Operation not permitted. Choose a folder you can write to." The folder
was writable; the file in it was locked (the SRT beside a video, too, was never named). A lock
that appears while the export runs is reported at the end, naming the file as well.

Locking a file needs CAP_LINUX_IMMUTABLE and a file system with inode flags: the tests skip
where ``chattr +i`` can't be used."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.cli import main
from studio.core.progress import Progress
from studio.export import ExportError, ExportOptions, export_branch

from .helpers import Fixture

EARLIER = b"an earlier export"


@pytest.fixture
def lock(tmp_path: Path) -> Iterator[list[Path]]:
    """Files to lock (``locked.append(path)``, then :func:`_lock`); unlocked again after the
    test, so that pytest can remove them."""
    if shutil.which("chattr") is None:
        pytest.skip("needs chattr")
    locked: list[Path] = []
    yield locked
    for path in locked:
        subprocess.run(["chattr", "-i", str(path)], check=False, capture_output=True)


def _lock(path: Path, locked: list[Path]) -> None:
    if not path.exists():
        path.write_bytes(EARLIER)
    done = subprocess.run(["chattr", "+i", str(path)], check=False, capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"can't lock a file here: {done.stderr.decode(errors='replace').strip()}")
    locked.append(path)
    try:
        with open(path, "ab"):
            pass
    except PermissionError:
        return
    pytest.skip("a locked file can still be written here")


@pytest.mark.parametrize("name", ["episode.mp4", "episode.srt", "board.pdf", "board.png", "cut.otio"])
def test_a_locked_file_is_named_when_the_export_would_replace_it(story: Fixture, tmp_path: Path, name: str,
                                                                 lock: list[Path],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / name
    _lock(out, lock)
    path, leaf = story.project.path, story.leaf
    story.project.close()
    assert main(["export", str(path), "--leaf", leaf, "--out", str(out), "--force", "-q"]) == 2
    err = capsys.readouterr().err
    assert f"Can't replace {out}" in err and "locked" in err, err
    assert "Choose a folder you can write to" not in err
    assert out.read_bytes() == EARLIER
    assert sorted(p.name for p in out_dir.iterdir()) == [name]  # no work folder left


def test_a_locked_srt_beside_the_video_is_named(story: Fixture, tmp_path: Path, lock: list[Path]) -> None:
    out = tmp_path / "episode.mp4"
    side = tmp_path / "episode.srt"
    _lock(side, lock)
    with pytest.raises(ExportError) as caught:
        export_branch(story.project, story.leaf, out, options=ExportOptions(captions="srt"))
    assert f"Can't replace {side}" in caught.value.message
    assert not out.exists() and side.read_bytes() == EARLIER


def test_a_file_locked_while_the_video_is_made_is_named_at_the_end(story: Fixture, tmp_path: Path,
                                                                   lock: list[Path]) -> None:
    out = tmp_path / "episode.mp4"
    out.write_bytes(EARLIER)

    def progress(step: Progress) -> None:
        if not lock and step.message.endswith("finishing"):  # locked as the video is finished
            _lock(out, lock)

    with pytest.raises(ExportError) as caught:
        export_branch(story.project, story.leaf, out, options=ExportOptions(stream_copy=False), progress=progress)
    assert lock, "the export reported no progress"
    assert f"Can't replace {out}" in caught.value.message, caught.value.message
    assert "folder" not in caught.value.hint
    assert out.read_bytes() == EARLIER
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
