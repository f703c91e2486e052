"""Text drawn over a small frame (a 64x48 preview GIF, a 48x32 thumbnail clip) stays inside it.

A title card kept its four lines at the smallest type even where the frame held two: the
first and last lines ran off the top and bottom of the card, cut through, with no ellipsis.
A burned caption's band kept its three lines in a 32-pixel frame: the lines below the
frame's bottom were lost. And the note naming the turns whose caption was cut listed every
turn of a long branch (80 numbers on one line)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.export import CaptionMode, ExportOptions, export_branch
from studio.export.drawing import caption_layout, caption_patch

from .helpers import Fixture, build, decode

TITLE = "Episode 1: Qiqi's first delivery, and the long night of the lantern festival in town"


def _text_rows(frame: np.ndarray) -> np.ndarray:
    """Rows of ``frame`` holding white text (the card's gradient is dark)."""
    return np.where((frame.astype(int).min(axis=2) > 150).any(axis=1))[0]


def test_a_title_card_in_a_small_frame_keeps_its_lines_inside(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "preview.mp4"
    result = export_branch(story.project, story.leaf, out,
                           options=ExportOptions(size=(64, 48), title=TITLE, title_duration=0.25))
    card = decode(out)[0]
    rows = _text_rows(card)
    assert rows.size, "the card shows its text"
    assert rows.min() > 0 and rows.max() < card.shape[0] - 1, f"text runs off the card: rows {rows.min()}..{rows.max()}"
    assert ("the title card's text was too long for its two lines and ends in '\u2026' "
            "(a shorter --title, or a larger --size, shows all of it)") in result.notes, result.notes


def test_a_short_title_in_a_small_frame_is_whole_and_not_noted(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "short.gif"
    result = export_branch(story.project, story.leaf, out,
                           options=ExportOptions(size=(64, 48), title="Day one", title_duration=0.25))
    rows = _text_rows(decode(out)[0])
    assert rows.size and rows.min() > 0 and rows.max() < 47
    assert not any("card" in note for note in result.notes), result.notes


def test_a_caption_band_fits_a_small_frame() -> None:
    size = (48, 32)
    text = "Qiqi: I'll bring the parcel to the bakery before sunset, promise!"
    patch = caption_patch(size, text)
    assert patch is not None
    assert patch.y >= 0 and patch.y + patch.rgba.shape[0] <= size[1], (patch.y, patch.rgba.shape)
    _face, lines, cut = caption_layout(size, text)
    assert cut and lines[-1].endswith("\u2026"), "what does not fit is cut with an ellipsis, and said so"


def test_the_cut_captions_note_names_a_few_turns_of_a_long_branch(tmp_path: Path) -> None:
    fixture = build(tmp_path, turns=12, frames=[2] * 12)
    try:
        result = export_branch(fixture.project, fixture.leaf, tmp_path / "long.mp4",
                               options=ExportOptions(size=(48, 32), captions=CaptionMode.BURN))
    finally:
        fixture.project.close()
    [note] = [note for note in result.notes if "caption" in note]
    # the first part: the frame's room (the second says that 3 s can't show the turns' 12
    # sentences, each subtitle up 5/6 s, whole)
    # (each caption shows four 1/6 s turns' text: the turns are named by caption)
    room = note.split("; ")[0]
    assert room.startswith("the burned captions of turns 1 to 4 (") and "9 to 12 (" in room, room
    assert room.endswith("are too long for the frame, so each ends in '\u2026' (to show all of it, shorten their "
                         "text, choose subtitles (--captions srt) instead of burned captions, or choose a larger "
                         "--size)"), room
