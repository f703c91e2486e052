"""What the tests of read-only folders, unreadable files and full disks share: a child process
bound by file permissions even when the tests run as root, and whether a small disk of its own
can be mounted for one (a private mount namespace)."""

from __future__ import annotations

import os
import shutil
import subprocess

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
