"""A turn of narration and three short lines in about 2 s has time for two subtitles, so its
lines share them. Narration was joined to the dialogue: the SRT read ``The town wakes up. /
Qiqi:`` over ``First! I'm late! / Yuzu: Wait!`` with no italics, the burned caption was
upright, and a speaker's name hung at the end of a line. Narration now keeps a subtitle of its
own, in italics (``<i>`` in the SRT, an oblique type burned in), and no line break parts a
speaker's name from the start of their words.

The projects are real (the CLI's own commands, or the project API with real clips); the SRT
is parsed back, the OTIO file read by OpenTimelineIO and the mp4 decoded."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.cli import main
from studio.core import AddDialogueLine, SetNarration
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.drawing import caption_patch, italic_font_file

from .helpers import FPS, Fixture, build, cli_turn, decode, parse_srt

NARRATION = "The town wakes up."
LINES = (("Qiqi", "First!"), ("Qiqi", "I'm late!"), ("Yuzu", "Wait!"))
SIZE = (320, 180)
NAME_AT_LINE_END = re.compile(r"(?:^|/ )[A-Z][a-z]+:$")


@pytest.fixture
def morning(tmp_path: Path) -> Iterator[Fixture]:
    """One turn of 17 frames at 8 fps (2.125 s: room for two subtitles of 5/6 s) with the
    narration and the three lines of the acceptance check."""
    fixture = build(tmp_path, turns=1, frames=[17])
    fixture.project.apply(SetNarration(fixture.leaf, NARRATION))
    for speaker, text in LINES:
        fixture.project.apply(AddDialogueLine(fixture.leaf, speaker, text))
    yield fixture
    fixture.project.close()


def _srt(story: Fixture, path: Path) -> list[tuple[float, float, str]]:
    return parse_srt(export_branch(story.project, story.leaf, path).path.read_text(encoding="utf-8"))


def test_the_srt_keeps_the_narration_in_italics_on_a_subtitle_of_its_own(morning: Fixture, tmp_path: Path) -> None:
    entries = _srt(morning, tmp_path / "morning.srt")
    texts = [text for _, _, text in entries]
    assert texts[0] == f"<i>{NARRATION}</i>", texts
    rest = [" ".join(text.split()) for text in texts[1:]]
    assert rest and not any(NARRATION in text or "<i>" in text for text in rest), texts
    assert " ".join(rest) == "Qiqi: First! I'm late! / Yuzu: Wait!", rest
    assert entries[0][1] - entries[0][0] >= 7 / FPS - 1e-3 and entries[1][1] - entries[1][0] >= 7 / FPS - 1e-3


def test_otio_markers_name_the_narration_apart(morning: Fixture, tmp_path: Path) -> None:
    entries = _srt(morning, tmp_path / "morning.srt")
    timeline = otio.adapters.read_from_file(str(export_branch(morning.project, morning.leaf,
                                                              tmp_path / "morning.otio").path))
    markers = list(timeline.tracks[0].markers)
    assert markers[0].name == NARRATION
    assert markers[0].metadata["kamishibai"]["kind"] == "narration"
    assert all(marker.metadata["kamishibai"]["kind"] != "narration" for marker in markers[1:])
    assert [" ".join(m.name.split()) for m in markers] == [
        " ".join(text.removeprefix("<i>").removesuffix("</i>").split()) for _, _, text in entries]


def _drawn(clean: np.ndarray, text: str, italic: bool) -> np.ndarray:
    """``clean`` (a frame of the export without captions) with ``text`` drawn as a burned caption."""
    patch = caption_patch(SIZE, text, italic=italic)
    assert patch is not None
    return patch.apply(clean)


def _closer(decoded: np.ndarray, drawn: np.ndarray, other: np.ndarray) -> bool:
    """Whether ``decoded`` is ``drawn`` rather than ``other``, over the pixels where they differ
    (the letters), by well over the difference a video's compression makes."""
    where = np.abs(drawn.astype(int) - other.astype(int)).max(axis=2) > 60
    assert where.sum() > 50
    near = np.abs(decoded[where].astype(int) - drawn[where].astype(int)).mean()
    far = np.abs(decoded[where].astype(int) - other[where].astype(int)).mean()
    return bool(near < far / 2)


def test_the_burned_narration_is_oblique_and_changes_where_the_srt_does(morning: Fixture, tmp_path: Path) -> None:
    if italic_font_file() is None:
        pytest.skip("needs an italic or oblique font (DejaVu Sans Oblique)")
    entries = _srt(morning, tmp_path / "morning.srt")
    video = export_branch(morning.project, morning.leaf, tmp_path / "morning.mp4",
                          options=ExportOptions(captions=CaptionMode.BURN, size=SIZE))
    frames = decode(video.path)
    clean = decode(export_branch(morning.project, morning.leaf, tmp_path / "clean.mp4",
                                 options=ExportOptions(captions=CaptionMode.NONE, size=SIZE)).path)
    change = round(entries[1][0] * FPS)
    assert 0 < change < len(frames) == len(clean)
    before, after = change - 1, change
    oblique, upright = _drawn(clean[before], NARRATION, True), _drawn(clean[before], NARRATION, False)
    assert _closer(frames[before], oblique, upright), "the narration is oblique"
    dialogue = _drawn(clean[after], entries[1][2], False)
    assert _closer(frames[after], dialogue, _drawn(clean[after], entries[1][2], True)), "the dialogue upright"
    assert _closer(frames[after], dialogue, _drawn(clean[after], f"{NARRATION} / {entries[1][2]}", False)), \
        "the dialogue alone, in the lines of the SRT"
    assert _closer(frames[0], oblique, dialogue) and _closer(frames[-1], dialogue, oblique)


def test_a_name_never_ends_a_line(tmp_path: Path) -> None:
    """Two speakers in a 1 s turn share a subtitle of two lines: each speaker's words start a
    line, never ``... / Yuzu:`` over ``Hello, ...``."""
    story = build(tmp_path, turns=1, frames=[8])
    try:
        story.project.apply(AddDialogueLine(story.leaf, "Qiqi", "Hi there!"))
        story.project.apply(AddDialogueLine(story.leaf, "Yuzu", "Hello, how are you today?"))
        [(_, _, text)] = _srt(story, tmp_path / "two.srt")
        assert text.splitlines() == ["Qiqi: Hi there!", "Yuzu: Hello, how are you today?"], text
    finally:
        story.project.close()


def test_the_cli_export_of_the_acceptance_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The commands of the acceptance check, as a user types them."""
    project, node = cli_turn(tmp_path, "n", "Qiqi sits in the town", capsys)
    assert main(["narrate", project, node, NARRATION]) == 0
    for speaker, text in LINES:
        assert main(["say", project, node, text, *(["--speaker", speaker] if speaker != "Qiqi" else [])]) == 0
    out = tmp_path / "n.srt"
    assert main(["export", project, "--out", str(out), "--quiet"]) == 0
    texts = [text for _, _, text in parse_srt(out.read_text(encoding="utf-8"))]
    narrated = [text for text in texts if NARRATION in text]
    assert narrated == [f"<i>{NARRATION}</i>"], texts
    lines = [line for text in texts for line in text.splitlines()]
    assert not any(NAME_AT_LINE_END.search(line) for line in lines), lines
