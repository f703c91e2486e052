"""A turn whose caption is several cues (several spoken lines, or narration and a line) shared
its stretch among them: a 1 s turn saying three short lines between two turns whose long lines
need all their own time showed them for 0.25, 0.375 and 0.375 s, in the SRT, burned in and as
OTIO markers alike, too short to read. No subtitle now shows for less than the minimum (5/6 s,
7 frames at 8 fps) where it can be had: the turn's lines run on into a neighbour's reading time
where that one keeps its own minimum; where they still have too little, short lines share one
subtitle of two lines (a speaker's next line without the name again), and only where even that
can't show them all is the text cut, ending in "…", which the export's notes say.

The projects are real (the CLI's own commands, or the project API with real clips); the SRT is
parsed back, the mp4 decoded and the OTIO file read by OpenTimelineIO."""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
from pathlib import Path

import numpy as np
import opentimelineio as otio
import pytest

from studio.cli import main
from studio.core import AddDialogueLine, SetDuration
from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.subtitles import display_width

from .helpers import FPS, Fixture, decode, parse_srt

LEAST = math.ceil(5 / 6 * FPS) / FPS
"""The least time a subtitle shows, in whole frames: 7 at 8 fps."""
LONG = "Wait for me at the old bridge by the river, I will be there soon."
"""About 4 s to read: a 2 s turn saying it has no time to spare."""
LINES = (("Yuzu", "Hi!"), ("Qiqi", "Hello there."), ("Yuzu", "Let's go now."))
ELLIPSIS = "\u2026"


def _crowded(story: Fixture, lines: tuple[tuple[str, str], ...] = LINES, seconds: float = 1.0) -> Fixture:
    """Turns of 2 s, ``seconds`` and 2 s; the first and last say :data:`LONG`, the middle one ``lines``."""
    first, middle, last = story.nodes
    for node, duration in zip(story.nodes, (2.0, seconds, 2.0), strict=True):
        story.project.apply(SetDuration(node, duration))
    story.project.apply(AddDialogueLine(first, "Qiqi", LONG))
    for speaker, text in lines:
        story.project.apply(AddDialogueLine(middle, speaker, text))
    story.project.apply(AddDialogueLine(last, "Qiqi", LONG))
    return story


def _srt(story: Fixture, path: Path) -> list[tuple[float, float, str]]:
    return parse_srt(export_branch(story.project, story.leaf, path).path.read_text(encoding="utf-8"))


def _words(texts: list[str]) -> list[str]:
    """The words shown, without the slashes between lines nor a speaker's name said again."""
    return [word for word in " ".join(texts).split() if word != "/"]


def _assert_readable(entries: list[tuple[float, float, str]], columns: int = 42) -> None:
    """Every subtitle up the minimum, of at most two lines of at most ``columns``, in order."""
    for start, end, text in entries:
        assert end - start >= LEAST - 1e-3, entries
        assert len(text.splitlines()) <= 2 and all(display_width(line) <= columns for line in text.splitlines()), text
    for (_, end, _), (start, _, _) in itertools.pairwise(entries):
        assert end <= start + 1e-6, entries


def test_srt_keeps_every_line_of_a_crowded_turn_up_the_minimum(story: Fixture, tmp_path: Path) -> None:
    entries = _srt(_crowded(story), tmp_path / "crowded.srt")
    _assert_readable(entries)
    middle = [entry for entry in entries if 2.0 - 1e-6 <= entry[0] < 3.0 - 1e-6]
    assert middle and middle[0][0] == pytest.approx(2.0), "turn 2's lines start at its cut"
    assert _words([text for _, _, text in entries]) == _words(
        [f"Qiqi: {LONG}", *(f"{who}: {text}" for who, text in LINES), f"Qiqi: {LONG}"]), "every word, in order"
    assert entries[-1][1] == pytest.approx(5.0)


def test_otio_markers_show_what_the_srt_shows_when_it_does(story: Fixture, tmp_path: Path) -> None:
    _crowded(story)
    entries = _srt(story, tmp_path / "crowded.srt")
    timeline = otio.adapters.read_from_file(str(export_branch(story.project, story.leaf, tmp_path / "c.otio").path))
    markers = [(m.marked_range.start_time.to_seconds(), m.marked_range.end_time_exclusive().to_seconds(), m.name)
               for m in timeline.tracks[0].markers]
    assert [t for start, end, _ in markers for t in (start, end)] == pytest.approx(
        [t for start, end, _ in entries for t in (start, end)], abs=1e-3)
    # the same words; a subtitle's line that ends where two joined lines meet drops the "/"
    # (its line break parts them), which a marker's one-line name keeps
    assert [[word for word in name.split() if word != "/"] for _, _, name in markers] == [
        [word for word in text.split() if word != "/"] for _, _, text in entries]


def test_burned_captions_change_where_the_srt_does_and_stay_up_the_minimum(story: Fixture, tmp_path: Path) -> None:
    _crowded(story)
    entries = _srt(story, tmp_path / "crowded.srt")
    video = export_branch(story.project, story.leaf, tmp_path / "crowded.mp4",
                          options=ExportOptions(captions=CaptionMode.BURN, size=(320, 180)))
    frames = decode(video.path)
    assert len(frames) == 40
    text = [np.all(frame > 200, axis=2) for frame in frames]  # the letters: near white over plain colours
    assert all(letters.sum() > 10 for letters in text), "a caption on every frame"
    changes = [index + 1 for index in range(len(text) - 1) if np.logical_xor(text[index], text[index + 1]).sum() > 50]
    assert changes == [round(start * FPS) for start, _, _ in entries[1:]], (changes, entries)
    runs = [b - a for a, b in itertools.pairwise([0, *changes, len(frames)])]
    assert min(runs) >= LEAST * FPS, runs


def test_a_speakers_next_line_joins_without_the_name_again(story: Fixture, tmp_path: Path) -> None:
    entries = _srt(_crowded(story, (("Yuzu", "Hi!"), ("Yuzu", "Let's go now."))), tmp_path / "same.srt")
    _assert_readable(entries)
    assert "Yuzu: Hi! Let's go now." in [" ".join(text.split()) for _, _, text in entries], entries


def test_japanese_lines_share_subtitles_of_japanese_width(story: Fixture, tmp_path: Path) -> None:
    lines = (("美咲", "こんにちは。"), ("美咲", "一緒に港まで歩いて行こうよ。"), ("Qiqi", "うん、行こう！"))
    entries = _srt(_crowded(story, lines), tmp_path / "ja.srt")
    _assert_readable(entries[1:-1], columns=26)  # 13 full-width characters a line
    _assert_readable(entries)
    shown = ["".join(text.split("\n")) for _, _, text in entries[1:-1]]
    # her second line goes on from her first without her name, and without a space after "。"
    assert shown[0].startswith("美咲: こんにちは。一緒に港まで歩いて行こうよ。"), shown
    assert "".join(shown).count("美咲") == 1 and shown[-1].endswith("Qiqi: うん、行こう！"), shown


LONG_LINE = ("The lanterns along the canal flicker on, one after another, in the dusk, and a cat watches "
             "the boats from the warm stones of the old bridge while somewhere a bell rings twice and the "
             "bakery finally closes its doors for the night, so we should hurry home before the last tram "
             "leaves the square.")


def test_a_300_character_line_takes_readable_two_line_subtitles(story: Fixture, tmp_path: Path) -> None:
    assert len(LONG_LINE) >= 290
    entries = _srt(_crowded(story, (("Yuzu", LONG_LINE),), seconds=20.0), tmp_path / "long.srt")
    _assert_readable(entries)
    middle = entries[1:-1]
    assert len(middle) >= 4, middle
    assert _words([text for _, _, text in middle]) == _words([f"Yuzu: {LONG_LINE}"])


def test_a_300_character_line_in_a_short_turn_shows_its_start_and_says_so(story: Fixture, tmp_path: Path) -> None:
    _crowded(story, (("Yuzu", LONG_LINE),))
    result = export_branch(story.project, story.leaf, tmp_path / "cut.srt")
    entries = parse_srt(result.path.read_text(encoding="utf-8"))
    _assert_readable(entries)
    [(_, _, middle)] = entries[1:-1]
    shown = " ".join(middle.split())
    assert shown.endswith(ELLIPSIS) and f"Yuzu: {LONG_LINE}".startswith(shown.removesuffix(ELLIPSIS)), shown
    assert any("turn 2" in note and ELLIPSIS in note for note in result.notes), result.notes


def test_the_cli_export_of_a_crowded_turn_reads_back_readable(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The commands a user types: three turns made by the sketch engine, a 1 s turn of three
    lines, the SRT written by ``kamishibai export`` and read back. A blank line an older project
    file holds (the commands refuse one now) shows no subtitle of a name alone."""
    project = str(tmp_path / "crowded")
    assert main(["new", project]) == 0
    project += ".kamishibai"
    capsys.readouterr()
    assert main(["play", project, "--engine-host", "in-process", "--json",
                 "-i", "Character: Qiqi; Motion: wave; Background: day town.",
                 "-i", "Character: Yuzu; Motion: jump; Background: day town.",
                 "-i", "Character: Qiqi; Motion: sit; Background: day town."]) == 0
    nodes = [turn["node"] for turn in json.loads(capsys.readouterr().out)]
    first, middle, last = nodes
    for node, seconds in zip(nodes, ("2", "1", "2"), strict=True):
        assert main(["story", project, node, "--duration", seconds]) == 0
    assert main(["say", project, first, LONG]) == 0
    for speaker, text in LINES:
        assert main(["say", project, middle, "--speaker", speaker, text]) == 0
    assert main(["say", project, last, LONG]) == 0
    with sqlite3.connect(Path(project) / "project.db") as db:
        db.execute("UPDATE nodes SET dialogue = ? WHERE id = ?",
                   (json.dumps([[speaker, text] for speaker, text in (LINES[0], ("Qiqi", "   "), *LINES[1:])]),
                    middle))
    out = tmp_path / "crowded.srt"
    assert main(["export", project, "--out", str(out), "--quiet"]) == 0
    entries = parse_srt(out.read_text(encoding="utf-8"))
    _assert_readable(entries)
    texts = [" ".join(text.split()) for _, _, text in entries]
    assert "Qiqi:" not in texts and not any(text.endswith("Qiqi:") for text in texts), texts
    assert _words(texts) == _words([f"Qiqi: {LONG}", *(f"{who}: {text}" for who, text in LINES), f"Qiqi: {LONG}"])
