"""A clip or poster replaced by a link to a file outside the project after the branch was
collected (its paths checked) and before the export reads it: the export opens each file one
folder at a time without following a link, and hands ffmpeg the file it opened, so the file
outside is never read. Ordinary projects export as before."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from studio.export import ExportError, ExportOptions
from studio.export.api import export_task
from studio.storage.media import write_clip, write_poster

from .helpers import FPS, FRAMES, SIZE, Fixture, clip_frames, close_to, decode, video_facts

OUTSIDE_COLOUR = (250, 130, 10)  # in no clip of the fixture


def _outside_files(tmp_path: Path) -> tuple[Path, Path]:
    """A real clip and poster outside the project, joinable with the project's clips."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    frames = clip_frames(OUTSIDE_COLOUR, FRAMES, SIZE)
    write_clip(folder / "secret.mp4", frames, FPS)
    write_poster(folder / "secret.png", frames[0])
    return folder / "secret.mp4", folder / "secret.png"


def _take_file(story: Fixture, turn: int, name: str) -> Path:
    take = story.project.tree.selected_take(story.nodes[turn])
    assert take is not None
    return story.project.path / (take.clip_path if name == "clip" else take.poster_path)


def _swap_for_link(path: Path, target: Path) -> None:
    path.unlink()
    os.symlink(target, path)


def _has_colour(frame: np.ndarray, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``frame`` are ``colour`` (give or take the encoder's rounding)."""
    return int(np.all(np.abs(frame.astype(int) - np.array(colour)) <= 12, axis=-1).sum())


@pytest.mark.parametrize("stream_copy", [True, False], ids=["stream-copy", "re-encode"])
def test_a_clip_swapped_for_a_link_after_the_check_is_not_read(story: Fixture, tmp_path: Path,
                                                                 stream_copy: bool) -> None:
    secret_clip, _poster = _outside_files(tmp_path)
    out = tmp_path / "out" / "episode.mp4"
    out.parent.mkdir()
    job = export_task(story.project, story.leaf, out, ExportOptions(stream_copy=stream_copy))  # checked here
    _swap_for_link(_take_file(story, 1, "clip"), secret_clip)
    with pytest.raises(ExportError) as raised:
        job(lambda _progress: None, lambda: False)
    message = raised.value.message
    assert "turn 2" in message and "link to a file outside the project" in message, message
    assert raised.value.remake == (story.nodes[1],)
    assert not out.exists() and list(out.parent.iterdir()) == []


def test_the_same_swap_with_a_real_file_is_read(story: Fixture, tmp_path: Path) -> None:
    """The control: the swapped-in file's frames do show when it is a file of the project,
    so the test above would see them had the link been followed."""
    secret_clip, _poster = _outside_files(tmp_path)
    out = tmp_path / "episode.mp4"
    job = export_task(story.project, story.leaf, out)
    clip = _take_file(story, 1, "clip")
    clip.unlink()
    clip.write_bytes(secret_clip.read_bytes())
    result = job(lambda _progress: None, lambda: False)
    assert result.used_stream_copy
    frames = decode(out)
    assert close_to(frames[FRAMES + 2][10, 10], OUTSIDE_COLOUR)


@pytest.mark.parametrize("stream_copy", [True, False], ids=["stream-copy", "re-encode"])
def test_an_ordinary_project_still_exports(story: Fixture, tmp_path: Path, stream_copy: bool) -> None:
    out = tmp_path / "episode.mp4"
    result = export_task(story.project, story.leaf, out, ExportOptions(stream_copy=stream_copy))(
        lambda _progress: None, lambda: False)
    assert result.used_stream_copy is stream_copy
    facts = video_facts(out)
    assert facts.frames == 3 * FRAMES and (facts.width, facts.height) == SIZE
    frames = decode(out)
    for turn, colour in enumerate(story.colours):
        assert close_to(frames[turn * FRAMES + FRAMES // 2][SIZE[1] // 2, SIZE[0] // 2], colour), turn


def _sheet_page(story: Fixture, tmp_path: Path, swap: str) -> np.ndarray:
    """The one PNG page of the story's sheet, with turn 2's poster replaced after the check
    by a link to the orange poster outside the project (``swap="link"``), by a copy of it
    (``"file"``), or left alone (``""``)."""
    _clip, secret_poster = _outside_files(tmp_path)
    out = tmp_path / "sheet" / "board.png"
    out.parent.mkdir()
    job = export_task(story.project, story.leaf, out, ExportOptions(panels_per_page=3))
    poster = _take_file(story, 1, "poster")
    if swap == "link":
        _swap_for_link(poster, secret_poster)
    elif swap == "file":
        poster.unlink()
        poster.write_bytes(secret_poster.read_bytes())
    result = job(lambda _progress: None, lambda: False)
    assert result.pages == 1 and list(result.paths) == [out]
    with Image.open(out) as image:
        return np.asarray(image.convert("RGB"))


def test_a_poster_swapped_for_a_link_is_not_read(story: Fixture, tmp_path: Path) -> None:
    page = _sheet_page(story, tmp_path, "link")
    assert _has_colour(page, OUTSIDE_COLOUR) == 0  # the poster outside is not shown...
    assert _has_colour(page, story.colours[1]) > 1000  # ...turn 2's clip's first frame is, in its place


def test_a_poster_swapped_for_a_file_is_shown(story: Fixture, tmp_path: Path) -> None:
    """The control: the page shows the orange poster when it is a file of the project."""
    page = _sheet_page(story, tmp_path, "file")
    assert _has_colour(page, OUTSIDE_COLOUR) > 1000


def test_an_ordinary_sheet_shows_every_poster(story: Fixture, tmp_path: Path) -> None:
    page = _sheet_page(story, tmp_path, "")
    assert _has_colour(page, OUTSIDE_COLOUR) == 0
    for colour in story.colours:
        assert _has_colour(page, colour) > 1000, colour


def test_without_descriptor_names_clips_are_read_through_private_copies(story: Fixture, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the system has no name for an open file (no ``/proc``), ffmpeg reads a private
    copy of the opened file: the export is the same, and a link swapped in is still refused."""
    import studio.export.branch as branch_module

    monkeypatch.setattr(branch_module, "descriptor_name", lambda fd: None)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    for stream_copy in (True, False):
        out = tmp_path / f"episode-{stream_copy}.mp4"
        export_task(story.project, story.leaf, out, ExportOptions(stream_copy=stream_copy))(
            lambda _progress: None, lambda: False)
        frames = decode(out)
        assert len(frames) == 3 * FRAMES
        for turn, colour in enumerate(story.colours):
            assert close_to(frames[turn * FRAMES + 1][5, 5], colour), (stream_copy, turn)
    secret_clip, _poster = _outside_files(tmp_path)
    job = export_task(story.project, story.leaf, tmp_path / "swapped.mp4")
    _swap_for_link(_take_file(story, 2, "clip"), secret_clip)
    with pytest.raises(ExportError, match="link to a file outside the project"):
        job(lambda _progress: None, lambda: False)
    assert list(scratch.iterdir()) == []  # the copies are gone
