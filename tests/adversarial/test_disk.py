"""Full disks, file-size limits, read-only folders and damaged databases: each gets its own
truthful message, and nothing is half-done (issue 11, items 9, 13 and 17).

A full disk is a small tmpfs mounted in a user namespace of the test's own (or, where
namespaces are not available, a file-size limit); a read-only folder is a read-only bind
mount (root ignores permission bits, but not a read-only mount).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import LINE, QUICK, kamishibai, needs_namespaces, new_project, play, run_confined

RESTORE_WORDS = ("damaged", "Restore", "bak-")


def _truthful(stderr: str, word: str) -> None:
    assert word in stderr, stderr
    for misleading in RESTORE_WORDS:
        assert misleading not in stderr, stderr


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("disk")
    path = new_project(tmp / "story")
    leaf = play(path)["node"]
    return path, leaf


@needs_namespaces
def test_new_on_a_full_disk_leaves_nothing(tmp_path: Path) -> None:
    """Item 9: "internal error" and a folder with a 0-byte project.db, after which `new`
    said it exists and opening said "damaged"."""
    small = tmp_path / "small"
    report = run_confined(tmp_path, [["new", str(small / "p")], ["!", "rm", str(small / ".filler")],
                                     ["new", str(small / "p")]],
                          tmpfs=(small, 512 * 1024), fill=(small, 8 * 1024), inspect=[small])
    full, _, again = report.results
    assert full.returncode == 1  # a disk without room: the work failed
    _truthful(full.stderr, "full")
    assert again.returncode == 0, again.stderr
    assert sorted(report.listing[str(small)]) == ["p.kamishibai/", "p.kamishibai/media/", "p.kamishibai/project.db",
                                                  "p.kamishibai/writer.lock"]


def test_new_under_a_file_size_limit_leaves_nothing(tmp_path: Path) -> None:
    report = run_confined(tmp_path, [["new", str(tmp_path / "p")]], fsize=16 * 1024, inspect=[tmp_path])
    assert report.results[0].returncode == 1
    _truthful(report.results[0].stderr, "limit")
    assert [name for name in report.listing[str(tmp_path)] if "p.kamishibai" in name] == []
    assert new_project(tmp_path / "p").is_dir()


@needs_namespaces
def test_a_read_only_folder_is_read_but_not_called_damaged(generated: tuple[Path, str], tmp_path: Path) -> None:
    """Item 13: even `tree` and `info` said project.db "is damaged ... Restore it"."""
    source, leaf = generated
    ro = tmp_path / "ro"
    ro.mkdir()
    shutil.copytree(source, ro / "story.kamishibai")
    project = ro / "story.kamishibai"
    out = tmp_path / "out"
    out.mkdir()
    report = run_confined(tmp_path, [
        ["tree", str(project)], ["info", str(project)], ["queue", str(project)],
        ["export", str(project), "--leaf", leaf, "--out", str(out / "ep.mp4"), "-q"],
        ["bundle", str(project), str(out / "b.zip")],
        ["play", str(project), "-i", LINE, *QUICK],
        ["reroll", str(project), leaf, *QUICK],
    ], readonly=[ro])
    for result in report.results[:5]:
        assert result.returncode == 0, result.stderr
    assert (out / "ep.mp4").is_file() and (out / "b.zip").is_file()
    for result in report.results[5:]:
        assert result.returncode == 2
        _truthful(result.stderr, "read-only")
    assert sorted(p.name for p in project.iterdir()) == sorted(p.name for p in source.iterdir())


@needs_namespaces
def test_a_full_disk_is_read_but_not_called_damaged(generated: tuple[Path, str], tmp_path: Path) -> None:
    """Item 13, on a full disk."""
    source, leaf = generated
    small = tmp_path / "small"
    project = small / "story.kamishibai"
    report = run_confined(tmp_path, [
        ["tree", str(project)], ["info", str(project), "--json"],
        ["export", str(project), "--leaf", leaf, "--out", str(tmp_path / "ep.mp4"), "-q"],
        ["play", str(project), "-i", LINE, *QUICK],
    ], tmpfs=(small, 2 * 1024 * 1024), copy=[(source, project)], fill=(small, 0), inspect=[small])
    tree, info, export, played = report.results
    assert tree.returncode == 0 and leaf in tree.stdout, tree.stderr
    assert info.returncode == 0 and json.loads(info.stdout)["turns"] == 1
    assert export.returncode == 0, export.stderr
    assert played.returncode == 1
    _truthful(played.stderr, "full")


def test_a_damaged_database_is_called_damaged(generated: tuple[Path, str], tmp_path: Path) -> None:
    source, _ = generated
    project = tmp_path / "story.kamishibai"
    shutil.copytree(source, project)
    db = project / "project.db"
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xa5" * 4096  # the second page, a b-tree page, now garbage
    db.write_bytes(bytes(data))
    for args in (["tree", str(project)], ["play", str(project), "-i", LINE, *QUICK]):
        done = kamishibai(*args)
        assert done.returncode == 2
        assert "damaged" in done.stderr and "Restore" in done.stderr, done.stderr


@needs_namespaces
def test_play_on_a_full_disk_keeps_no_turn_and_names_no_temporary_file(generated: tuple[Path, str],
                                                                        tmp_path: Path) -> None:
    """Item 17: the message named `.clip.XXXX.part.mp4` and each try left a new turn with
    a failed take."""
    source, _ = generated
    small = tmp_path / "small"
    project = small / "story.kamishibai"
    db = project / "project.db"
    # the engine's full-size clip, more than the disk has left (without settings `play` goes on at
    # the small size the turn above was made at, which fits)
    full_size = ["--setting", "width=720", "--setting", "height=480", "--setting", "frames=17"]
    one_play = ["play", str(project), "-i", LINE, *full_size]
    report = run_confined(tmp_path, [one_play, one_play],
                          tmpfs=(small, 4 * 1024 * 1024), copy=[(source, project)], fill=(small, 200 * 1024),
                          inspect=[small], sql=[(db, "SELECT COUNT(*) FROM nodes"), (db, "SELECT COUNT(*) FROM takes")])
    for result in report.results:
        assert result.returncode == 1
        _truthful(result.stderr, "full")
        assert ".part" not in result.stderr, result.stderr
    assert report.sql == [[[2]], [[1]]], "a failed play left a turn or a take behind"
    leftovers = [name for name in report.listing[str(small)] if ".part" in name]
    assert leftovers == []
