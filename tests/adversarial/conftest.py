"""Helpers for the adversarial tests: the real CLI in subprocesses, full disks, read-only folders.

Every CLI call here goes through :func:`kamishibai`, which fails the test if a command
ever answers with "internal error" or a traceback: whatever the input, the user gets a
message that says what is wrong.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

DRIVER = Path(__file__).with_name("confined_driver.py")
QUICK = ("--setting", "frames=3", "--setting", "width=64", "--setting", "height=48")
"""Engine settings for small, fast clips."""
LINE = "Character: Qiqi; Motion: run; Background: day town"


def assert_no_internal_error(stderr: str) -> None:
    assert "internal error" not in stderr, stderr
    assert "Traceback" not in stderr, stderr


def kamishibai(*args: str, timeout: float = 180, input: str | bytes | None = None,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a real process; never an internal error."""
    done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, timeout=timeout,
                          input=input.encode() if isinstance(input, str) else input,
                          env={**os.environ, **(env or {})})
    result = subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                         done.stderr.decode("utf-8", "replace"))
    assert_no_internal_error(result.stderr)
    return result


def new_project(folder: Path) -> Path:
    """A new project at ``folder``; its path as ``new`` printed it, escaped for a terminal
    (a line break shows as ⏎), matched back to the folder made."""
    from studio.cli.common import printable

    done = kamishibai("new", str(folder))
    assert done.returncode == 0, done.stderr
    printed = done.stdout.strip()
    made = [p for p in folder.parent.iterdir() if printable(str(p)) == printed]
    assert len(made) == 1, (printed, sorted(folder.parent.iterdir()))
    return made[0]


def play(path: Path, text: str = LINE, *extra: str) -> dict[str, Any]:
    done = kamishibai("play", str(path), "-i", text, *QUICK, "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def png_bomb(path: Path, side: int) -> None:
    """A 1-bit PNG of side x side black pixels: a few dozen KB that decode to side² pixels."""
    row = b"\0" + b"\0" * ((side + 7) // 8)
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


@functools.cache
def namespaces_available() -> bool:
    """True if ``unshare -rm`` works here (mount a tmpfs or a read-only bind as an
    unprivileged user in a namespace of our own)."""
    if shutil.which("unshare") is None or sys.platform != "linux":
        return False
    try:
        done = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt"],
                              capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@dataclass
class Confined:
    results: list[subprocess.CompletedProcess[str]]
    listing: dict[str, dict[str, int]]
    sql: list[list[list[Any]]]
    free: int | None


def run_confined(tmp_path: Path, commands: Sequence[Sequence[str]], *, tmpfs: tuple[Path, int] | None = None,
                 copy: Sequence[tuple[Path, Path]] = (), fill: tuple[Path, int] | None = None,
                 readonly: Sequence[Path] = (), fsize: int | None = None, inspect: Sequence[Path] = (),
                 sql: Sequence[tuple[Path, str]] = ()) -> Confined:
    """Run CLI ``commands`` under :mod:`confined_driver` (in a namespace when one is needed)."""
    spec = {
        "tmpfs": [str(tmpfs[0]), tmpfs[1]] if tmpfs else None,
        "copy": [[str(a), str(b)] for a, b in copy],
        "fill": [str(fill[0]), fill[1]] if fill else None,
        "readonly": [str(p) for p in readonly],
        "fsize": fsize,
        "commands": [list(c) for c in commands],
        "inspect": [str(p) for p in inspect],
        "sql": [[str(db), query] for db, query in sql],
    }
    spec_file = tmp_path / "confined-spec.json"
    spec_file.write_text(json.dumps(spec))
    needs_namespace = bool(tmpfs or readonly)
    prefix = ["unshare", "-rm"] if needs_namespace else []
    done = subprocess.run([*prefix, sys.executable, str(DRIVER), str(spec_file)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    results = [subprocess.CompletedProcess(c, r["rc"], r["stdout"], r["stderr"])
               for c, r in zip(commands, report["results"], strict=True)]
    for result in results:
        assert_no_internal_error(result.stderr)
    return Confined(results, report["listing"], report["sql"], report["free"])


needs_namespaces = pytest.mark.skipif(not namespaces_available(),
                                      reason="needs `unshare -rm` (user and mount namespaces)")
