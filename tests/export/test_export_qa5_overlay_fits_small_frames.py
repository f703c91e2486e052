"""The state overlay fits any frame the exporter accepts.

The panel was at least 120 pixels wide and about 65 high: in a frame smaller than about
126x70 it ran off the frame's right and bottom edges, and in a frame a little larger it hid
most of the picture. It now takes a smaller type, drops the name, shortens the labels and
drops the values as the frame shrinks, and is left out, with a note, where even that is too
large. Frames of the usual sizes show it as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from studio.core.state import STAT_NAMES, CharacterState
from studio.export import ExportOptions, export_branch
from studio.export.drawing import (
    PANEL,
    TEXT,
    draw_state_bars,
    fit_line,
    load_typeface,
    overlay_least_frame,
    state_patch,
)

from .helpers import Fixture, decode

MOST_SHARE = 0.4
"""The most of a frame's area the overlay may cover (its panel: 60% of each side at most)."""


def _export(story: Fixture, path: Path, size: tuple[int, int], overlay: bool) -> tuple[np.ndarray, tuple[str, ...]]:
    result = export_branch(story.project, story.leaf, path, options=ExportOptions(size=size, overlay=overlay))
    return decode(path), result.notes


def _overlay_pixels(story: Fixture, tmp_path: Path, size: tuple[int, int]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Where the overlay changed the first frame (rows x columns of bools), and the notes:
    the same export with and without the overlay, compared."""
    name = f"{size[0]}x{size[1]}"
    plain, _notes = _export(story, tmp_path / f"plain-{name}.mp4", size, overlay=False)
    shown, notes = _export(story, tmp_path / f"overlay-{name}.mp4", size, overlay=True)
    assert shown.shape[1:3] == (size[1], size[0])
    changed = np.abs(shown[0].astype(int) - plain[0].astype(int)).max(axis=2) > 40
    return changed, notes


@pytest.mark.parametrize("size", [(126, 70), (96, 64), (80, 60)])
def test_the_overlay_stays_inside_a_small_frame(story: Fixture, tmp_path: Path, size: tuple[int, int]) -> None:
    changed, notes = _overlay_pixels(story, tmp_path, size)
    rows, columns = np.nonzero(changed)
    assert rows.size, "the overlay is drawn"
    width, height = size
    # cut off by the frame, the panel reached its last column and row
    assert columns.max() < width - 4 and rows.max() < height - 4, (columns.max(), rows.max())
    assert changed.mean() <= MOST_SHARE, f"the overlay covers {changed.mean():.0%} of a {width}x{height} frame"
    assert not any("overlay" in note for note in notes), notes


@pytest.mark.parametrize("size", [(64, 48), (48, 32), (16, 16)])
def test_the_overlay_is_left_out_of_a_tiny_frame_with_a_note(story: Fixture, tmp_path: Path,
                                                              size: tuple[int, int]) -> None:
    changed, notes = _overlay_pixels(story, tmp_path, size)
    assert not changed.any(), "nothing of the overlay is drawn"
    least_w, least_h = overlay_least_frame()
    assert (f"the state overlay was left out: a {size[0]}x{size[1]} frame has no room for its bars "
            f"(a --size of at least {least_w}x{least_h} shows them)") in notes, notes


def test_the_smallest_frame_named_in_the_note_shows_the_overlay() -> None:
    least = overlay_least_frame()
    patch = state_patch(least, CharacterState(80, 35, 100), "Qiqi")
    height, width = patch.rgba.shape[:2]
    assert width and height, "the overlay is drawn in the smallest frame the note names"
    assert patch.x + width <= least[0] and patch.y + height <= least[1]
    narrower = state_patch((least[0] - 1, least[1]), CharacterState(), "Qiqi")
    assert narrower.rgba.size == 0, "a frame any smaller has no room"


@pytest.mark.parametrize("size", [(160, 120), (126, 70), (100, 100), (96, 64), (300, 60), (60, 300), (62, 59),
                                  (16, 16), (4096, 64), (64, 2160)])
def test_the_panel_fits_inside_the_frame(size: tuple[int, int]) -> None:
    patch = state_patch(size, CharacterState(100, 100, 100), "A character with a rather long name")
    height, width = patch.rgba.shape[:2]
    assert patch.x + width <= size[0] and patch.y + height <= size[1], (patch.x, patch.y, width, height)
    assert width * height <= MOST_SHARE * size[0] * size[1]


def _panel_as_before(size: tuple[int, int], state: CharacterState, character: str) -> tuple[int, np.ndarray]:
    """The panel as it was drawn before small frames were fitted: (its margin, its RGBA)."""
    width, height = size
    face = load_typeface(max(9, height // 30))
    pad = max(3, height // 80)
    panel_w = max(120, int(width * 0.34))
    heading = int(face.line_height() * 1.2) if character else 0
    panel_h = int(face.line_height() * 1.25 * len(STAT_NAMES) + 2 * pad) + heading
    image = Image.new("RGBA", (panel_w, panel_h), (*PANEL, 160))
    draw = ImageDraw.Draw(image)
    if character:
        bold = load_typeface(max(9, height // 30), bold=True)
        bold.draw(draw, (pad, pad), fit_line(character, bold.width, panel_w - 2 * pad), TEXT)
    draw_state_bars(draw, (pad, pad + heading, panel_w - pad, panel_h - pad), state, face)
    return max(2, height // 60), np.asarray(image, dtype=np.uint8)


@pytest.mark.parametrize("size", [(720, 480), (320, 240), (1920, 1080)])
@pytest.mark.parametrize("character", ["Qiqi", ""])
def test_usual_frames_show_the_overlay_as_before(size: tuple[int, int], character: str) -> None:
    state = CharacterState(80, 35, 100)
    margin, before = _panel_as_before(size, state, character)
    patch = state_patch(size, state, character)
    assert (patch.x, patch.y) == (margin, margin)
    assert patch.rgba.shape == before.shape and np.array_equal(patch.rgba, before)
