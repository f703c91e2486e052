"""A PDF storyboard names itself in its document information.

reportlab's defaults were left in every sheet: a viewer's Properties said "Author: anonymous",
"Subject: unspecified". The title is the sheet's own heading, the subject says which branch of
which story it shows, and the author and creator name the application and its version."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from studio import __version__
from studio.export import ExportOptions, export_branch

from .helpers import Fixture

INFO_FIELDS = ("Title", "Author", "Subject", "Keywords", "Creator")
_STRING = rb"\(((?:\\.|[^\\)])*)\)|<([0-9A-Fa-f\s]*)>"
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _literal(raw: bytes) -> bytes:
    """A PDF literal string's bytes, its escapes (``\\(``, ``\\267``) undone."""
    def undo(match: re.Match[bytes]) -> bytes:
        escaped = match[1]
        if escaped[:1].isdigit():
            return bytes([int(escaped, 8)])
        return _ESCAPES.get(escaped, escaped)
    return re.sub(rb"\\([0-7]{1,3}|.)", undo, raw)


def _text(data: bytes) -> str:
    """A PDF text string: UTF-16 with its byte order mark, else PDFDocEncoding (Latin-1 for
    the characters used here)."""
    if data.startswith(b"\xfe\xff"):
        return data[2:].decode("utf-16-be")
    return data.decode("latin-1")


def pdf_info(path: Path) -> dict[str, str]:
    """The document information dictionary of a PDF written by reportlab (not compressed: it
    is a plain object), read from the file's bytes: pypdf is not a dependency."""
    data = path.read_bytes()
    trailer = data[data.rindex(b"trailer"):]
    number = re.search(rb"/Info\s+(\d+)\s+0\s+R", trailer)
    assert number is not None, "the PDF has no document information"
    start = data.index(b"\n" + number[1] + b" 0 obj")
    body = data[start:data.index(b"endobj", start)]
    info: dict[str, str] = {}
    for field in INFO_FIELDS:
        found = re.search(rb"/" + field.encode() + rb"\s*(?:" + _STRING + rb")", body)
        if found is not None:
            raw = _literal(found[1]) if found[1] is not None else bytes.fromhex(found[2].decode())
            info[field] = _text(raw)
    return info


def _sheet(story: Fixture, out: Path, title: str = "") -> dict[str, str]:
    export_branch(story.project, story.leaf, out, options=ExportOptions(title=title))
    return pdf_info(out)


def test_a_sheet_is_titled_as_its_heading_and_names_its_maker(story: Fixture, tmp_path: Path) -> None:
    info = _sheet(story, tmp_path / "board.pdf", title="Harbour Night")
    assert info["Title"] == "Harbour Night"
    assert info["Creator"] == f"Kamishibai Studio {__version__}"
    assert info["Author"] == "Kamishibai Studio"
    assert "Kamishibai Studio" in info["Subject"]
    assert "Test Story" in info["Subject"] and "Branch to turn 3" in info["Subject"], info["Subject"]
    assert "anonymous" not in info.values() and "unspecified" not in info.values(), info


def test_without_a_title_the_sheet_is_titled_by_its_story(story: Fixture, tmp_path: Path) -> None:
    assert _sheet(story, tmp_path / "board.pdf")["Title"] == "Test Story"  # as the sheet's heading says


def test_a_title_card_of_several_lines_is_one_line_of_metadata(story: Fixture, tmp_path: Path) -> None:
    info = _sheet(story, tmp_path / "board.pdf", title="Harbour\nNight 港の夜")
    assert info["Title"] == "Harbour Night 港の夜"


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler's pdfinfo is not installed")
def test_pdfinfo_reads_the_same_metadata(story: Fixture, tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    info = _sheet(story, out, title="Harbour Night")
    shown = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True).stdout
    fields = dict(line.split(":", 1) for line in shown.splitlines() if ":" in line)
    for field in ("Title", "Author", "Subject", "Creator"):
        assert fields[field].strip() == info[field]
