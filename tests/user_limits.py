"""What the tests of read-only folders, unreadable files and full disks share: a child process
bound by file permissions even when the tests run as root, and whether a small disk of its own
can be mounted for one (a private mount namespace)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT_POWERS = "-dac_override,-dac_read_search"


def as_a_user(command: list[str]) -> list[str]:
    """``command`` run so that file permissions hold for it: as it is for a user, and for root
    through ``setpriv`` without the powers that let root read and write any file (the test is
    skipped where root has no ``setpriv``)."""
    if os.geteuid() != 0:
        return command
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: file permissions can't be made to hold")
    return ["setpriv", f"--bounding-set={ROOT_POWERS}", f"--inh-caps={ROOT_POWERS}", "--", *command]


def private_mounts() -> bool:
    """Whether ``unshare -rm`` can mount a small tmpfs here (a disk of its own to fill)."""
    if shutil.which("unshare") is None:
        return False
    done = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt"],
                          capture_output=True, timeout=20)
    return done.returncode == 0


def under_a_file_size_limit(args: list[str], limit: int, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``python -m studio ARGS`` in a child whose files may not grow past ``limit`` bytes
    (``ulimit -f``); a write past it fails with EFBIG (Python ignores SIGXFSZ)."""
    import resource
    import sys

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limited, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def fill_the_disk(filler: str) -> None:
    """Write ``filler`` until the disk holding it is full to its last byte (a child on a small
    disk of its own imports this from the repository root)."""
    with open(filler, "wb", buffering=0) as handle:
        for size in (65536, 4096, 1):
            try:
                while True:
                    handle.write(b"x" * size)
            except OSError:
                pass


def two_turn_project(folder: Path) -> Path:
    """A project of two generated sketch turns in ``folder`` (small: its own files fit under
    the file-size limits these tests set, a video or a bundle of it does not)."""
    from studio.cli import main

    demo = folder / "demo.txt"
    demo.write_text("Character: Qiqi; Motion: run; Background: day park.\n"
                    "Character: Qiqi; Motion: jump; Background: day park.\n", encoding="utf-8")
    path = folder / "story.kamishibai"
    assert main(["import-demo", str(demo), "--project", str(path)]) == 0
    assert main(["fill", str(path), "--run", "--quiet"]) == 0
    return path


def block_the_take_folders(project: Path) -> None:
    """A file where the project's take folders go: every new take's files then fail to be
    written, and the generation fails."""
    takes = project / "media" / "takes"
    if takes.exists():
        for folder in takes.iterdir():
            for file in folder.iterdir():
                file.unlink()
            folder.rmdir()
        takes.rmdir()
    takes.write_text("not a folder", encoding="utf-8")
