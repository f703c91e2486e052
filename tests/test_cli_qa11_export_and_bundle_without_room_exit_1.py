"""`kamishibai export` and `kamishibai bundle` writing to a disk without room (full, or past the
file-size limit) exited with status 2, the status of a command used wrongly, where the README
promises 1 for a disk without room. The messages are unchanged, and nothing half-written is left."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from studio.cli import main
from tests.user_limits import private_mounts, two_turn_project, under_a_file_size_limit

LIMIT = 32 * 1024
"""Room for the project's own small files, not for a video or a bundle of it."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return two_turn_project(tmp_path)


def _limited(*args: str) -> subprocess.CompletedProcess[str]:
    return under_a_file_size_limit(list(args), LIMIT)


@pytest.mark.parametrize("name, options", [("episode.mp4", ["--reencode"]), ("episode.pdf", [])])
def test_an_export_without_room_exits_1(project: Path, tmp_path: Path, name: str, options: list[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    done = _limited("export", str(project), "--out", str(out / name), *options, "--quiet")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "file-size limit (ulimit -f) was reached" in done.stderr, done.stderr
    assert "internal error" not in done.stderr
    assert list(out.iterdir()) == []



ON_A_FULL_DISK = """
    import subprocess, sys
    small, project = sys.argv[1], sys.argv[2]
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", small], check=True)
    from tests.user_limits import fill_the_disk
    fill_the_disk(small + "/filler")  # the disk full to its last byte
    for name in ("story.zip", "episode.mp4"):
        args = ["bundle", project, small + "/" + name] if name.endswith(".zip") else [
            "export", project, "--out", small + "/" + name, "--quiet"]
        done = subprocess.run([sys.executable, "-m", "studio", *args], capture_output=True, text=True)
        print(done.returncode, done.stderr.replace("\\n", " ").strip())
    subprocess.run(["rm", small + "/filler"], check=True)
    print(sorted(__import__("os").listdir(small)))
"""


@pytest.mark.skipif(sys.platform != "linux" or not private_mounts(), reason="needs `unshare -rm` to mount a small disk")
def test_a_bundle_and_an_export_onto_a_full_disk_exit_1(project: Path, tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    done = subprocess.run(["unshare", "-rm", sys.executable, "-c", textwrap.dedent(ON_A_FULL_DISK), str(small),
                           str(project)], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr
    *results, left = done.stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in results] == ["1", "1"], results
    assert "full" in results[0] and "full" in results[1], results
    assert left == "[]", "a half-written bundle or video was left"


def test_an_export_with_room_exits_0(project: Path, tmp_path: Path) -> None:
    assert main(["export", str(project), "--out", str(tmp_path / "episode.mp4"), "--quiet"]) == 0
