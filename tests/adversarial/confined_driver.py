"""Runs CLI commands on a full disk or in a read-only folder, and reports what happened.

Usage: python confined_driver.py SPEC.json

Run inside ``unshare -rm`` (a user and mount namespace: "root" there may mount a small
tmpfs or a read-only bind mount that nobody else sees), or plainly with a file-size limit
(RLIMIT_FSIZE) when namespaces are not available. The spec (JSON):

- ``tmpfs``: [path, bytes]: mount a tmpfs of that size at path (namespace only)
- ``copy``: [[src, dst], ...]: copied before the commands (``cp -a``)
- ``fill``: [path, bytes_left]: write a filler file until only about bytes_left are free
- ``readonly``: [path, ...]: bind-mount read-only (namespace only)
- ``fsize``: bytes: file-size limit for the commands (SIGXFSZ ignored: writes fail with EFBIG)
- ``commands``: [[arg, ...], ...]: ``kamishibai`` arguments (``["!", prog, ...]`` runs prog instead)
- ``inspect``: [path, ...]: listed after the commands (relative names of every file, with sizes)
- ``sql``: [[db, query], ...]: run read-only after the commands

Prints one JSON object: results (rc, stdout, stderr per command), listing, sql.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True)


def _fill(folder: Path, left: int) -> None:
    filler = folder / ".filler"
    chunk = b"\0" * 65536
    with open(filler, "wb") as handle:
        try:
            while True:
                handle.write(chunk)
                handle.flush()
        except OSError:
            pass
    free = shutil.disk_usage(folder).free
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - max(0, left - free)))


def _limit(size: int):  # type: ignore[no-untyped-def]
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return apply


def _listing(root: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    if not root.exists():
        return out
    for path in sorted(root.rglob("*")):
        if path.is_file():
            out[path.relative_to(root).as_posix()] = path.stat().st_size
        elif path.is_dir():
            out[path.relative_to(root).as_posix() + "/"] = 0
    return out


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    if spec.get("tmpfs"):
        path, size = spec["tmpfs"]
        Path(path).mkdir(parents=True, exist_ok=True)
        _mount("-t", "tmpfs", "-o", f"size={int(size)}", "tmpfs", path)
    for src, dst in spec.get("copy", []):
        subprocess.run(["cp", "-a", src, dst], check=True)
    if spec.get("fill"):
        path, left = spec["fill"]
        _fill(Path(path), int(left))
    for path in spec.get("readonly", []):
        _mount("--bind", path, path)
        _mount("-o", "remount,bind,ro", path)
    results = []
    for args in spec.get("commands", []):
        command = args[1:] if args[:1] == ["!"] else [sys.executable, "-m", "studio", *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                              preexec_fn=_limit(int(spec["fsize"])) if spec.get("fsize") else None)
        results.append({"rc": done.returncode, "stdout": done.stdout, "stderr": done.stderr})
    listing = {path: _listing(Path(path)) for path in spec.get("inspect", [])}
    sql = []
    for db, query in spec.get("sql", []):
        conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
        sql.append(conn.execute(query).fetchall())
        conn.close()
    free = shutil.disk_usage(spec["fill"][0]).free if spec.get("fill") else None
    print(json.dumps({"results": results, "listing": listing, "sql": sql, "free": free}))


if __name__ == "__main__":
    main()
