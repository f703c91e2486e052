"""A title card's text takes a smaller type before it is cut.

On a narrow or tall card (144x256) the text kept the type the card's height asked for and
was cut after four lines with an ellipsis, the card's lower half empty: "A Very Long Story
Title 物…". It now goes down to half that type before it is cut; a text longer than even
that holds is cut, and said so, as before."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from studio.export import ExportOptions, export_branch

from .helpers import Fixture, decode

TITLE = "Qiqi and the long night of the lantern festival"


def _text_bands(frame: np.ndarray) -> list[tuple[int, int]]:
    """Runs of rows holding white text (first, last), top to bottom (the card is dark)."""
    rows = (frame.astype(int).min(axis=2) > 150).any(axis=1)
    bands: list[tuple[int, int]] = []
    for row in np.nonzero(rows)[0]:
        if bands and row <= bands[-1][1] + 2:
            bands[-1] = (bands[-1][0], int(row))
        else:
            bands.append((int(row), int(row)))
    return bands


def test_a_long_title_on_a_tall_card_is_shown_whole(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "tall.mp4"
    result = export_branch(story.project, story.leaf, out,
                           options=ExportOptions(size=(144, 256), title=TITLE, title_duration=0.25))
    card = decode(out)[0]
    bands = _text_bands(card)
    assert bands and bands[0][0] > 0 and bands[-1][1] < card.shape[0] - 1, bands
    # the last line ends in a letter ("festival"), not in the three low dots of an ellipsis
    first, last = bands[-1]
    ink = card[first:last + 1].astype(int).min(axis=2) > 150
    columns = np.nonzero(ink.any(axis=0))[0]
    blobs = np.split(columns, np.nonzero(np.diff(columns) > 1)[0] + 1)
    heights = [int(np.ptp(np.nonzero(ink[:, blob].any(axis=1))[0])) + 1 for blob in blobs[-3:]]
    assert max(heights) > (last - first + 1) // 2, f"the title ends in an ellipsis: ink heights {heights}"
    # the text is read at a glance: lines at least 8 pixels high
    assert min(b - a + 1 for a, b in bands) >= 8, bands
    assert not any("card" in note for note in result.notes), result.notes
