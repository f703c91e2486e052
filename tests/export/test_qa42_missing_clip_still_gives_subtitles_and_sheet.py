"""A turn whose clip file is missing refused every export, the PDF storyboard and the SRT too,
which need no picture of it (a clip cut short still gave a sheet, with a note). Now subtitles
and sheets are made without it, with a note naming the turn: the subtitles time it by the
length its take was made with, the sheet shows its poster, or a plain panel where that is gone
too. The video formats still refuse, with the hint to re-roll it."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from studio.core import AddTake, AddTurn, Take, TakeStatus
from studio.export import ExportError, export_branch
from studio.storage import Project
from studio.storage.media import write_clip, write_poster

from .helpers import COLOURS, FPS, clip_frames, parse_srt


def _turn(project: Project, parent: str, number: int) -> str:
    """A turn whose take recorded the length it was made with, as the engines record it."""
    node_id = uuid.uuid4().hex[:10]
    project.apply(AddTurn(parent, f"Character: Qiqi; Motion: wave {number}; Background: day town.", node_id=node_id))
    folder = project.take_media_dir(f"t{node_id}")
    data = clip_frames(COLOURS[number], 12, (96, 64))
    write_clip(project.resolve(f"{folder}/clip.mp4"), data, FPS)
    write_poster(project.resolve(f"{folder}/poster.png"), data[0])
    project.apply(AddTake(Take(id=f"t{node_id}", node_id=node_id, engine="test", clip_path=f"{folder}/clip.mp4",
                               poster_path=f"{folder}/poster.png", status=TakeStatus.DONE,
                               settings={"frames": 12, "fps": float(FPS)})))
    return node_id


@pytest.fixture
def gone(tmp_path: Path) -> Iterator[tuple[Project, str, str]]:
    project = Project.create(tmp_path / "gone", name="Gone")
    parent = project.tree.root_id
    nodes = []
    for number in range(3):
        parent = _turn(project, parent, number)
        nodes.append(parent)
    yield project, nodes[1], nodes[-1]
    project.close()


def test_subtitles_and_sheets_export_without_a_missing_clip(gone: tuple[Project, str, str], tmp_path: Path) -> None:
    project, middle, leaf = gone
    before = parse_srt(export_branch(project, leaf, tmp_path / "before.srt").path.read_text(encoding="utf-8"))
    take = project.tree.selected_take(middle)
    project.resolve(take.clip_path).unlink()
    srt = export_branch(project, leaf, tmp_path / "after.srt")
    assert parse_srt(srt.path.read_text(encoding="utf-8")) == before, "timed by the length the take was made with"
    assert any("the clip of turn 2" in note and "is missing" in note for note in srt.notes), srt.notes
    sheet = export_branch(project, leaf, tmp_path / "board.pdf")
    assert sheet.path.is_file() and any("its poster" in note for note in sheet.notes), sheet.notes
    shutil.rmtree(project.resolve(take.clip_path).parent)  # the poster goes too
    pages = export_branch(project, leaf, tmp_path / "board.png")
    assert pages.path.is_file() and any("without a picture" in note for note in pages.notes), pages.notes
    for video in ("ep.mp4", "ep.otio"):
        with pytest.raises(ExportError, match="the clip of turn 2 .* is missing") as refused:
            export_branch(project, leaf, tmp_path / video)
        assert "Re-roll the turn" in refused.value.hint and refused.value.remake == (middle,)
