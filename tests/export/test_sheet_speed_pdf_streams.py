"""A PDF sheet's pictures and pages are written as compressed binary streams, never also
ASCII85-encoded.

reportlab encodes every stream in ASCII85 by default, and without its optional C extension
(rl_accel) it does so in pure Python: on a 60-turn sheet that encoding took more time than
everything else the sheet did (text, layout, pictures), and made the file a quarter larger.
Every PDF reader takes binary streams, so the sheet no longer asks for the encoding; and
reportlab's setting is left as it was for any other code of the process."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import pytest

from studio.export import ExportOptions, export_branch

from .helpers import Fixture


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of what reportlab's ASCII85 encoder was given, one a call."""
    from reportlab.pdfbase import pdfdoc

    calls: list[int] = []
    original = pdfdoc.asciiBase85Encode

    def counting(data: bytes | str) -> str:
        calls.append(len(data))
        return str(original(data))

    monkeypatch.setattr(pdfdoc, "asciiBase85Encode", counting)
    return calls


def test_a_pdf_sheet_encodes_nothing_in_ascii85(story: Fixture, tmp_path: Path, encoded: list[int]) -> None:
    from reportlab import rl_config

    before = rl_config.useA85
    result = export_branch(story.project, story.leaf, tmp_path / "board.pdf", options=ExportOptions())
    assert result.pages == 1
    assert encoded == []  # it was called once per picture and page before
    assert rl_config.useA85 == before
    pdf = (tmp_path / "board.pdf").read_bytes()
    assert b"ASCII85Decode" not in pdf


def test_its_pictures_still_hold_each_turns_colour(story: Fixture, tmp_path: Path) -> None:
    """Read back: each picture a Flate stream of RGB pixels in its turn's colour."""
    export_branch(story.project, story.leaf, tmp_path / "board.pdf", options=ExportOptions())
    pdf = (tmp_path / "board.pdf").read_bytes()
    found = []
    for match in re.finditer(rb"<<([^<>]*/Subtype /Image[^<>]*)>>\s*stream\r?\n", pdf):
        header = match[1]
        assert re.search(rb"/Filter \[? ?/FlateDecode ?\]? /", header), header
        length = int(re.search(rb"/Length (\d+)", header)[1])  # type: ignore[index]
        pixels = zlib.decompress(pdf[match.end():match.end() + length])
        width = int(re.search(rb"/Width (\d+)", header)[1])  # type: ignore[index]
        height = int(re.search(rb"/Height (\d+)", header)[1])  # type: ignore[index]
        assert len(pixels) == width * height * 3
        middle = (height // 2 * width + width // 2) * 3
        found.append(tuple(pixels[middle:middle + 3]))
    for colour, pixel in zip(story.colours, found, strict=True):
        assert all(abs(a - b) <= 12 for a, b in zip(colour, pixel, strict=True)), (colour, pixel)


def test_the_setting_is_restored_when_the_sheet_fails(story: Fixture, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from reportlab import rl_config
    from reportlab.pdfgen import canvas

    from studio.export import ExportError

    def broken(self: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(canvas.Canvas, "save", broken)
    before = rl_config.useA85
    with pytest.raises(ExportError):
        export_branch(story.project, story.leaf, tmp_path / "board.pdf", options=ExportOptions())
    assert rl_config.useA85 == before
    assert not (tmp_path / "board.pdf").exists()
