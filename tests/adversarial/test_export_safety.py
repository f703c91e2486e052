"""Exports never damage the project and never trust its files blindly (issue 11, items 1,
12, 15 and 16)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import QUICK, assert_no_internal_error, kamishibai, new_project, play, png_bomb

MIB = 1024 * 1024


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _contents(project: Path) -> dict[Path, str]:
    """Every project file's digest (SQLite's -wal/-shm and the lock file are bookkeeping)."""
    return {p: _digest(p) for p in project.rglob("*")
            if p.is_file() and p.name not in ("writer.lock", "project.db-wal", "project.db-shm")}


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[dict[str, object]]]:
    tmp = tmp_path_factory.mktemp("export")
    path = new_project(tmp / "story")
    takes = [play(path), play(path)]
    return path, str(takes[-1]["node"]), takes


def _copy(story: tuple[Path, str, list[dict[str, object]]], tmp_path: Path) -> Path:
    import shutil

    target = tmp_path / "copy.kamishibai"
    shutil.copytree(story[0], target)
    return target


@pytest.mark.parametrize("target", ["project.db", "media/takes/{take}/clip.mp4", "media/new.srt"])
def test_export_never_writes_inside_the_project(story: tuple[Path, str, list[dict[str, object]]], tmp_path: Path,
                                                target: str) -> None:
    """Item 1: `--out P/project.db --format srt` destroyed the project; `--out` on a take's
    clip replaced it with the episode."""
    project = _copy(story, tmp_path)
    take = Path(str(story[2][0]["clip"])).parent.name
    out = project / target.format(take=take)
    before = _contents(project)
    fmt = "srt" if target.endswith(".db") else out.suffix[1:]
    done = kamishibai("export", str(project), "--leaf", story[1], "--out", str(out), "--format", fmt, "-q")
    assert done.returncode == 2
    assert "inside the project" in done.stderr, done.stderr
    assert _contents(project) == before
    link = tmp_path / "link"
    link.symlink_to(project)
    done = kamishibai("export", str(project), "--leaf", story[1], "--out", str(link / "ep.srt"), "-q")
    assert done.returncode == 2 and "inside the project" in done.stderr
    assert not (project / "ep.srt").exists()


def _peak_rss_mb(args: list[str]) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run the CLI and measure the peak memory of it (and of what it ran)."""
    probe = ("import json, resource, subprocess, sys\n"
             "done = subprocess.run([sys.executable, '-m', 'studio', *sys.argv[1:]], capture_output=True, text=True)\n"
             "print(json.dumps([done.returncode, done.stdout, done.stderr,"
             " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))\n")
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=300)
    rc, stdout, stderr, peak_kb = json.loads(out.stdout)
    assert_no_internal_error(stderr)
    return subprocess.CompletedProcess(args, rc, stdout, stderr), peak_kb / 1024


@pytest.mark.parametrize("side", [20_000, 13_000])
def test_a_poster_bomb_does_not_break_or_bloat_a_sheet(story: tuple[Path, str, list[dict[str, object]]],
                                                       tmp_path: Path, side: int) -> None:
    """Item 12: a 48 KB PNG of 20000x20000 failed the sheet with DecompressionBombError;
    a 13000x13000 one took the export to 878 MB and printed a raw Python warning."""
    project = _copy(story, tmp_path)
    poster = project / Path(str(story[2][0]["poster"])).relative_to(story[0])
    png_bomb(poster, side)
    assert poster.stat().st_size < 200_000
    for suffix in ("png", "pdf"):
        done, peak = _peak_rss_mb(["export", str(project), "--leaf", story[1], "--out",
                                   str(tmp_path / f"sheet.{suffix}"), "-q"])
        assert done.returncode == 0, done.stderr
        assert "Warning" not in done.stderr and "Decompression" not in done.stderr, done.stderr
        assert peak < 400, f"the export used {peak:.0f} MB"
        assert (tmp_path / f"sheet.{suffix}").is_file()


def test_a_truncated_clip_is_reported_not_exported_short(tmp_path: Path) -> None:
    """Item 15: a clip cut to 60% (its header intact) exported silently short."""
    project = new_project(tmp_path / "long")
    taken = {}
    for motion in ("run", "wave"):  # the engine's full size: a cut keeps some frames, not none
        done = kamishibai("play", str(project), "-i", f"Character: Qiqi; Motion: {motion}; Background: day town",
                          "--json")
        assert done.returncode == 0, done.stderr
        taken = json.loads(done.stdout)
    clip = Path(str(taken["clip"]))
    data = clip.read_bytes()
    clip.write_bytes(data[: int(len(data) * 0.6)])
    for extra in ([], ["--reencode"], ["--format", "gif"]):
        out = tmp_path / ("ep.gif" if "gif" in extra else "ep.mp4")
        done = kamishibai("export", str(project), "--leaf", str(taken["node"]), "--out", str(out), "-q", *extra)
        assert done.returncode == 2, (extra, done.stdout)
        assert "turn 2" in done.stderr and "cut short" in done.stderr, done.stderr
        assert not out.exists()


def test_stream_copy_works_with_any_project_path(tmp_path: Path) -> None:
    """Item 16: a project path with a newline broke the stream-copy export."""
    path = new_project(tmp_path / "it's a\nstory")
    play(path)
    leaf = play(path)["node"]
    out = tmp_path / "ep.mp4"
    done = kamishibai("export", str(path), "--leaf", str(leaf), "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr
    assert "stream copy" in done.stdout and "6 frames" in done.stdout, done.stdout
    frames = kamishibai("export", str(path), "--leaf", str(leaf), "--out", str(tmp_path / "again.mp4"), "-q",
                        "--reencode")
    assert frames.returncode == 0 and "6 frames" in frames.stdout
    assert QUICK[1] == "frames=3"
