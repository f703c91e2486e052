"""A long line was two subtitles in the SRT, cut at its sentence end and each broken into lines
of about one width, but one OTIO marker of all its text and one burned caption broken wherever
the frame's width ran out (``…それとも近`` over ``いですか？``, splitting 近い). The burned captions
and the markers now show the SRT's subtitles: the same text at the same frames, and burned in,
in the same lines.

The projects are real (the CLI's own commands, or the project API with real clips); the SRT is
parsed back, the OTIO file read by OpenTimelineIO and the mp4 decoded."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.cli import main
from studio.core import AddDialogueLine
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.drawing import caption_patch

from .helpers import FPS, Fixture, build, cli_turn, decode, parse_srt

JAPANESE = "「東京タワー」はどこですか？ここから遠いですか、それとも近いですか？"
ENGLISH = ("The lanterns along the canal flicker on one after another in the dusk. A cat watches the boats "
           "from the warm stones of the old bridge while a bell rings twice. The bakery closes its doors for the "
           "night, so we should hurry home before the tram leaves.")
SIZE = (320, 180)


def _said(tmp_path: Path, speaker: str, text: str, frames: int) -> Fixture:
    story = build(tmp_path, turns=1, frames=[frames])
    story.project.apply(AddDialogueLine(story.leaf, speaker, text))
    return story


@pytest.fixture
def japanese(tmp_path: Path) -> Iterator[Fixture]:
    """A 2.125 s turn (17 frames at 8 fps) of the acceptance check's Japanese question."""
    story = _said(tmp_path, "Yuzu", JAPANESE, 17)
    yield story
    story.project.close()


@pytest.fixture
def english(tmp_path: Path) -> Iterator[Fixture]:
    """An 8 s turn of a line of about 250 characters: several subtitles."""
    story = _said(tmp_path, "Qiqi", ENGLISH, 64)
    yield story
    story.project.close()


def _srt(story: Fixture, path: Path) -> list[tuple[float, float, str]]:
    return parse_srt(export_branch(story.project, story.leaf, path).path.read_text(encoding="utf-8"))


def _markers(story: Fixture, path: Path) -> list[tuple[float, float, str]]:
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, path).path))
    return [(m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds(), m.name)
            for m in timeline.tracks[0].markers]


def _unspaced(text: str) -> str:
    return "".join(text.split())


def _assert_markers_are_the_subtitles(markers: list[tuple[float, float, str]],
                                      entries: list[tuple[float, float, str]]) -> None:
    assert len(markers) == len(entries) > 1, (markers, entries)
    assert [t for start, end, _ in markers for t in (start, end)] == pytest.approx(
        [t for start, end, _ in entries for t in (start, end)], abs=1e-3)
    assert [_unspaced(name) for _, _, name in markers] == [_unspaced(text) for _, _, text in entries]


def test_japanese_otio_markers_are_the_srt_subtitles(japanese: Fixture, tmp_path: Path) -> None:
    entries = _srt(japanese, tmp_path / "jp.srt")
    assert len(entries) == 2, entries
    assert "".join(_unspaced(text) for _, _, text in entries) == _unspaced(f"Yuzu: {JAPANESE}")
    _assert_markers_are_the_subtitles(_markers(japanese, tmp_path / "jp.otio"), entries)


def test_a_long_english_line_is_as_many_markers_as_subtitles(english: Fixture, tmp_path: Path) -> None:
    assert len(ENGLISH) >= 240
    entries = _srt(english, tmp_path / "en.srt")
    assert len(entries) >= 3, entries
    assert " ".join(" ".join(text.split()) for _, _, text in entries) == f"Qiqi: {ENGLISH}"
    markers = _markers(english, tmp_path / "en.otio")
    _assert_markers_are_the_subtitles(markers, entries)
    assert [" ".join(text.split()) for _, _, text in entries] == [name for _, _, name in markers]


def _closer(decoded: np.ndarray, drawn: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``decoded`` is ``drawn`` rather than ``other``, over the pixels where they differ
    (the letters), by well over the difference a video's compression makes."""
    where = np.abs(drawn.astype(int) - other.astype(int)).max(axis=2) > 60
    assert where.sum() > 50
    near = np.abs(decoded[where].astype(int) - drawn[where].astype(int)).mean()
    far = np.abs(decoded[where].astype(int) - other[where].astype(int)).mean()
    return bool(near < far / 2)


def _drawn(clean: np.ndarray, text: str) -> np.ndarray:
    patch = caption_patch(SIZE, text)
    assert patch is not None
    return patch.apply(clean)


@pytest.mark.parametrize("which", ["japanese", "english"])
def test_burned_captions_show_the_srt_subtitles_in_its_lines(which: str, request: pytest.FixtureRequest,
                                                             tmp_path: Path) -> None:
    story: Fixture = request.getfixturevalue(which)
    entries = _srt(story, tmp_path / "said.srt")
    frames = decode(export_branch(story.project, story.leaf, tmp_path / "burned.mp4",
                                  options=ExportOptions(captions=CaptionMode.BURN, size=SIZE)).path)
    clean = decode(export_branch(story.project, story.leaf, tmp_path / "clean.mp4",
                                 options=ExportOptions(captions=CaptionMode.NONE, size=SIZE)).path)
    assert len(frames) == len(clean) == story.frames[0]
    whole = f"{'Yuzu' if which == 'japanese' else 'Qiqi'}: {JAPANESE if which == 'japanese' else ENGLISH}"
    starts = [round(start * FPS) for start, _, _ in entries]
    letters = [np.all(frame > 200, axis=2) for frame in frames]
    changes = [index + 1 for index in range(len(letters) - 1)
               if np.logical_xor(letters[index], letters[index + 1]).sum() > 50]
    assert changes == starts[1:], (changes, entries)
    for (_, end, text), first in zip(entries, starts, strict=True):
        last = math.ceil(end * FPS) - 1
        for index in (first, last):  # where the caption changes, on both sides
            shown = _drawn(clean[index], text)
            assert _closer(frames[index], shown, _drawn(clean[index], whole)), f"subtitle {text!r}, not the whole line"
            if "\n" in text:
                assert _closer(frames[index], shown, _drawn(clean[index], " ".join(text.split()))), \
                    f"subtitle {text!r} in the SRT's lines"


def test_the_cli_exports_of_the_acceptance_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The commands of the acceptance check, as a user types them: the SRT and the OTIO file."""
    project, node = cli_turn(tmp_path, "jp", "Character: Yuzu; Motion: wave; Background: day park.", capsys)
    assert main(["say", project, node, JAPANESE]) == 0
    srt, timeline = tmp_path / "jp.srt", tmp_path / "jp.otio"
    assert main(["export", project, "--out", str(srt), "--quiet"]) == 0
    assert main(["export", project, "--out", str(timeline), "--quiet"]) == 0
    entries = parse_srt(srt.read_text(encoding="utf-8"))
    markers = [(m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds(), m.name)
               for m in otio.adapters.read_from_file(str(timeline)).tracks[0].markers]
    _assert_markers_are_the_subtitles(markers, entries)
    lines = [line for _, _, text in entries for line in text.splitlines()]
    assert not any(line.endswith("近") for line in lines), lines
