"""``kamishibai info``'s clip check (:func:`take_clip_faults`) reads each clip after checking
its path: a clip replaced by a link to a file outside the project right after the check is
refused, never read (nor handed to ffmpeg by its path). Ordinary clips are judged as before."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from studio.core import AddTake, AddTurn, Take, TakeStatus
from studio.storage import Project
from studio.storage.clip_check import ClipFault, take_clip_faults
from studio.storage.media import write_clip

CLIP = "media/takes/t1/clip.mp4"


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    project = Project.create(tmp_path / "story")
    project.apply(AddTurn(project.tree.root_id, "Character: Qiqi; Motion: run; Background: day town", node_id="n1"))
    write_clip(project.resolve(CLIP), np.full((6, 64, 96, 3), 90, dtype=np.uint8), 8)
    project.apply(AddTake(Take(id="t1", node_id="n1", engine="fake", clip_path=CLIP, status=TakeStatus.DONE)))
    yield project
    project.close()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A clip outside the project, cut short: judged, it would be reported as truncated."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    whole = folder / "whole.mp4"
    write_clip(whole, np.full((6, 64, 96, 3), 200, dtype=np.uint8), 8)
    data = whole.read_bytes()
    (folder / "secret.mp4").write_bytes(data[: len(data) * 2 // 3])
    return folder / "secret.mp4"


def _swap_after_check(project: Project, monkeypatch: pytest.MonkeyPatch, put: object) -> list[str]:
    """Make the clip's path check (``project.resolve``) put ``put`` in the clip's place (a
    link when a Path, else these bytes as a file) right after it returns; the checked paths."""
    checked: list[str] = []
    check = project.resolve

    def check_then_swap(rel: str) -> Path:
        path = check(rel)
        if rel == CLIP:
            checked.append(rel)
            path.unlink()
            if isinstance(put, Path):
                os.symlink(put, path)
            else:
                assert isinstance(put, bytes)
                path.write_bytes(put)
        return path

    monkeypatch.setattr(project, "resolve", check_then_swap)
    return checked


def test_a_clip_swapped_for_a_link_after_the_check_is_refused(project: Project, outside: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    checked = _swap_after_check(project, monkeypatch, outside)
    faults, count = take_clip_faults(project)
    assert checked == [CLIP] and count == 1
    [fault] = faults
    assert fault.verdict.fault is ClipFault.UNREADABLE  # not the outside file's "truncated"
    assert "link" in fault.verdict.message and "clip.mp4" in fault.verdict.message


def test_the_same_swap_with_a_real_file_is_judged(project: Project, outside: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: swapped in as a file of the project, the cut-short clip is read and judged."""
    _swap_after_check(project, monkeypatch, outside.read_bytes())
    [fault], _count = take_clip_faults(project)
    assert fault.verdict.fault is ClipFault.CUT_SHORT


def test_a_sound_clip_passes_and_a_damaged_one_is_named(project: Project) -> None:
    assert take_clip_faults(project) == ([], 1)
    clip = project.path / CLIP
    clip.write_bytes(clip.read_bytes()[:300])
    [fault], _count = take_clip_faults(project)
    assert fault.verdict.fault is ClipFault.CUT_SHORT and str(clip) in fault.verdict.message


def test_a_file_left_to_ffmpeg_is_named_by_its_own_path(project: Project) -> None:
    """A file that is not laid out as MP4 boxes goes to ffmpeg through the opened descriptor;
    the verdict names the clip's path, not the descriptor's name."""
    clip = project.path / CLIP
    clip.write_bytes(b"GIF89a" + bytes(200))
    [fault], _count = take_clip_faults(project)
    assert fault.verdict.fault is ClipFault.NOT_VIDEO, fault.verdict
    assert str(clip) in fault.verdict.message and "/proc/" not in fault.verdict.message
