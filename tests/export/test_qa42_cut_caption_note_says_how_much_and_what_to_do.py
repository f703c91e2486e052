"""The note on a burned caption too long for the frame said "the caption of turn 4 was too long
for the frame and ends in '…' (a larger --size, or captions as SRT, keeps all of it)": not
how much of it was lost, nor that shortening the line shows it whole. It now names the turn,
says how many words the frame cut, and what to do: shorten the text, choose subtitles instead
of burned captions (--captions srt), or a larger frame. Real exports are made; what the
frame cut is read from the SRT export of the same turns, laid out as the frame lays it."""

from __future__ import annotations

import re
from pathlib import Path

from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.drawing import caption_layout, caption_top

from .helpers import build, parse_srt

SMALL = (64, 48)
REMEDY = ("(to show all of it, shorten {their} text, choose subtitles (--captions srt) instead of burned "
          "captions, or choose a larger --size)")


def _words_left_out(text: str) -> int:
    """How many of ``text``'s words a burned caption in a SMALL frame does not show."""
    _face, lines, cut = caption_layout(SMALL, text, top=caption_top(SMALL, False, True))
    assert cut and lines[-1].endswith("\u2026")
    return len(text.split()) - len(" ".join(lines).removesuffix("\u2026").split())


def test_the_note_names_each_turn_and_how_many_words_were_cut(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=2, frames=[24, 24])
    try:
        burned = export_branch(fixture.project, fixture.leaf, tmp_path / "small.mp4",
                               options=ExportOptions(size=SMALL, captions=CaptionMode.BURN))
        export_branch(fixture.project, fixture.leaf, tmp_path / "whole.mp4",
                      options=ExportOptions(size=SMALL, captions=CaptionMode.SRT))
        roomy = export_branch(fixture.project, fixture.leaf, tmp_path / "roomy.mp4",
                              options=ExportOptions(size=(320, 180), captions=CaptionMode.BURN))
    finally:
        fixture.project.close()
    first, second = (text for _start, _end, text in parse_srt((tmp_path / "whole.srt").read_text("utf-8")))
    lost = [_words_left_out(first), _words_left_out(second)]
    assert all(0 < count < len(first.split()) for count in lost)
    [note] = [note for note in burned.notes if "burned caption" in note]
    assert note == (f"the burned captions of turns 1 ({lost[0]} words cut) and 2 ({lost[1]} words cut) are too long "
                    "for the frame, so each ends in '\u2026' " + REMEDY.format(their="their")), note
    assert "was too long for the frame" not in note
    assert not [note for note in roomy.notes if "caption" in note], "a frame with room cuts nothing"


def test_one_turn_cut_is_named_with_its_own_words(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=1, frames=[24])
    try:
        burned = export_branch(fixture.project, fixture.leaf, tmp_path / "one.mp4",
                               options=ExportOptions(size=SMALL, captions=CaptionMode.BURN))
        export_branch(fixture.project, fixture.leaf, tmp_path / "one-srt.mp4",
                      options=ExportOptions(size=SMALL, captions=CaptionMode.SRT))
    finally:
        fixture.project.close()
    ((_start, _end, text),) = parse_srt((tmp_path / "one-srt.srt").read_text("utf-8"))
    [note] = [note for note in burned.notes if "burned caption" in note]
    assert note == (f"turn 1's burned caption is too long for the frame: {_words_left_out(text)} words cut, so it "
                    "ends in '\u2026' " + REMEDY.format(their="its")), note
    assert re.search(r"\bturn 1\b", note) and "shorten" in note and "subtitles" in note
