"""New takes' clips are named after their take (``take-ID.mp4``); projects made before name
every clip ``clip.mp4``. Both namings are a take's own files to the unused-folder sweep, to
the half-written-file sweep after a crash, and to bundles."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from studio.core import AddTake, AddTurn, Take, TakeStatus
from studio.storage import Project
from studio.storage.bundle import export_bundle, import_bundle
from studio.storage.media import read_clip, write_clip, write_poster
from studio.storage.paths import CLIP_NAME, check_name, clip_name, clip_names
from studio.storage.project import PARTIAL_MIN_AGE_S
from studio.storage.unused_media import UNUSED_TAKE_MIN_AGE_S, unused_take_folders

OLD_TAKE, NEW_TAKE, GONE_OLD, GONE_NEW = "0000000001", "0000000002", "00000000a1", "00000000a2"


def test_a_new_clip_is_named_after_its_take() -> None:
    assert clip_name("3fa2b1c4d5") == "take-3fa2b1c4d5.mp4"
    assert clip_names("3fa2b1c4d5") == {"take-3fa2b1c4d5.mp4", CLIP_NAME}
    assert CLIP_NAME == "clip.mp4"


@pytest.mark.parametrize("take_id", ["späť", "a b", "x" * 65, "take\x7f", "a.b", "ＡＢ"])
def test_an_id_that_is_not_plain_ascii_keeps_the_old_safe_name(take_id: str) -> None:
    assert clip_name(take_id) == CLIP_NAME


@pytest.mark.parametrize("take_id", ["t1", "3fa2b1c4d5", "a_b-C", "x" * 64])
def test_a_clip_name_is_one_safe_ascii_file_name(take_id: str) -> None:
    name = clip_name(take_id)
    assert check_name(name, "clip") == name and name.isascii() and name.endswith(".mp4")
    assert take_id in name


def _frames(value: int, count: int = 3) -> np.ndarray:
    return np.full((count, 32, 48, 3), value, dtype=np.uint8)


def _write_take_files(project: Project, take_id: str, clip: str, value: int) -> str:
    folder = project.take_media_dir(take_id)
    write_clip(project.resolve(f"{folder}/{clip}"), _frames(value), 8.0)
    write_poster(project.resolve(f"{folder}/poster.png"), _frames(value)[0])
    return folder


def _add_take(project: Project, take_id: str, clip: str, value: int, *, files_of: str = "") -> None:
    """A turn with a done take whose clip is ``clip`` in the folder of ``files_of`` (its own by default)."""
    folder = _write_take_files(project, files_of or take_id, clip, value)
    node = f"n{take_id}"
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town.",
                          node_id=node))
    project.apply(AddTake(Take(id=take_id, node_id=node, engine="sketch", status=TakeStatus.DONE,
                               clip_path=f"{folder}/{clip}", poster_path=f"{folder}/poster.png")))


def _age(folder: Path, seconds: float) -> None:
    then = time.time() - seconds
    for path in [*folder.iterdir(), folder]:
        os.utime(path, (then, then), follow_symlinks=False)


def test_the_sweep_removes_left_over_take_folders_of_either_naming_and_keeps_what_takes_use(
        tmp_path: Path) -> None:
    with Project.create(tmp_path / "story") as project:
        _add_take(project, OLD_TAKE, CLIP_NAME, 40)
        _add_take(project, NEW_TAKE, clip_name(NEW_TAKE), 80)
        _write_take_files(project, GONE_OLD, CLIP_NAME, 120)  # a deleted turn's take, made before
        _write_take_files(project, GONE_NEW, clip_name(GONE_NEW), 160)  # ... and made now
        shared = "00000000b1"  # no row of this id, but a take of another id names its clip
        _add_take(project, "00000000b2", clip_name(shared), 200, files_of=shared)
        foreign = "00000000c1"  # holds a clip named after another take: not this folder's own
        _write_take_files(project, foreign, clip_name("00000000c2"), 10)
        takes = project.path / "media" / "takes"
        half = takes / GONE_NEW / f".take-{GONE_NEW}.0badcafe.part.mp4"  # its write was cut short
        half.write_bytes(b"half a clip")
        for folder in takes.iterdir():
            _age(folder, UNUSED_TAKE_MIN_AGE_S + 60)
        tree = project.tree
    found = unused_take_folders(tmp_path / "story.kamishibai", tree, "media")
    assert sorted(path.name for path in found) == [GONE_OLD, GONE_NEW]
    # opening removes the half-written file first, which makes its folder new again (the
    # folder goes at a later opening): without it, both folders go at this one
    half.unlink()
    _age(takes / GONE_NEW, UNUSED_TAKE_MIN_AGE_S + 60)

    with Project.open(tmp_path / "story.kamishibai") as project:
        assert any("removed 2 take folder(s)" in line for line in project.problems), project.problems
        assert sorted(p.name for p in takes.iterdir()) == sorted([OLD_TAKE, NEW_TAKE, shared, foreign])
        for take in project.tree.takes.values():  # every take still plays its clip
            frames, _fps = read_clip(project.resolve(take.clip_path))
            assert len(frames) == 3
        assert (takes / foreign / clip_name("00000000c2")).is_file()


WRITE_AND_HANG = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from studio.storage.media import writing_media
    target = Path(sys.argv[1])
    with writing_media(target) as tmp:
        with open(tmp, "wb") as handle:
            handle.write(b"half a clip" * 10000)
            handle.flush()
            print(tmp.name, flush=True)
            time.sleep(600)
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_clip_cut_short_by_a_crash_is_cleared_when_the_project_is_next_opened(tmp_path: Path) -> None:
    with Project.create(tmp_path / "story") as project:
        _add_take(project, NEW_TAKE, clip_name(NEW_TAKE), 80)
        target = project.resolve(f"{project.take_media_dir(GONE_NEW)}/{clip_name(GONE_NEW)}")
        kept = project.resolve(project.tree.takes[NEW_TAKE].clip_path)
    child = subprocess.Popen([sys.executable, "-c", WRITE_AND_HANG, str(target)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    name = child.stdout.readline().strip()
    child.send_signal(signal.SIGKILL)
    child.wait()
    left = target.parent / name
    assert left.is_file() and not target.exists(), "the killed write left no temporary file"
    assert name.startswith(f".take-{GONE_NEW}.") and name.endswith(".mp4")
    _age(target.parent, PARTIAL_MIN_AGE_S + 60)

    with Project.open(tmp_path / "story.kamishibai") as project:
        assert not left.exists()
        assert any("removed 1 half-written media file" in line for line in project.problems), project.problems
        assert kept.is_file() and len(read_clip(kept)[0]) == 3
    assert not target.exists()


def test_a_bundle_carries_clips_of_both_namings(tmp_path: Path) -> None:
    with Project.create(tmp_path / "story") as project:
        _add_take(project, OLD_TAKE, CLIP_NAME, 40)
        _add_take(project, NEW_TAKE, clip_name(NEW_TAKE), 200)
        bundle = export_bundle(project, tmp_path / "story.zip")
    copy = import_bundle(bundle, tmp_path / "copy.kamishibai")
    try:
        old, new = copy.tree.takes[OLD_TAKE], copy.tree.takes[NEW_TAKE]
        assert old.clip_path == f"media/takes/{OLD_TAKE}/clip.mp4"
        assert new.clip_path == f"media/takes/{NEW_TAKE}/take-{NEW_TAKE}.mp4"
        for take, value in ((old, 40), (new, 200)):
            frames, _fps = read_clip(copy.resolve(take.clip_path))
            assert len(frames) == 3 and abs(int(frames.mean()) - value) <= 3
            assert copy.missing_media(take) == []
    finally:
        copy.close()
