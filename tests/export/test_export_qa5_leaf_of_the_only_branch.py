"""`kamishibai export PROJECT --out FILE` without --leaf: a story of one branch exports that
branch (--leaf was required even when there is nothing to choose); a story of several
branches is refused, naming each branch's last turn to give as --leaf."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def kamishibai(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True, timeout=180)


def _played(path: Path, *args: str) -> list[dict[str, object]]:
    done = kamishibai("play", str(path), *args, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    return result if isinstance(result, list) else [result]


def test_one_branch_exports_without_leaf_and_two_need_one(tmp_path: Path) -> None:
    path = tmp_path / "trip.kamishibai"
    assert kamishibai("new", str(path)).returncode == 0
    empty = kamishibai("export", str(path), "--out", str(tmp_path / "empty.srt"))
    assert empty.returncode == 2 and "The story has no turns yet" in empty.stderr, empty.stderr
    first, second = _played(path, "-i", "Qiqi runs to the beach", "-i", "Qiqi waves")
    out = tmp_path / "episode.srt"
    done = kamishibai("export", str(path), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "Qiqi waves" in out.read_text(encoding="utf-8")

    third, = _played(path, "--parent", str(first["node"]), "-i", "Qiqi sits on a bench")
    refused = kamishibai("export", str(path), "--out", str(tmp_path / "other.srt"))
    assert refused.returncode == 2, refused.stderr
    assert "2 branches" in refused.stderr and "--leaf" in refused.stderr
    assert f"{second['node']} (Qiqi waves)" in refused.stderr
    assert f"{third['node']} (Qiqi sits on a bench)" in refused.stderr
    assert not (tmp_path / "other.srt").exists()
