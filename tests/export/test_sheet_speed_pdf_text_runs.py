"""A PDF sheet's line that its own font covers whole, with nothing in it drawn as a picture,
is one run without being split character by character.

Where the machine has a colour emoji font (Noto Color Emoji, as most Linux desktops do), every
line measured or drawn on a PDF sheet went through the character-by-character split, about
twelve thousand lines for a sheet of 60 turns, though almost all of them were in one font."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export import sheet_pdf
from studio.export.sheet_pdf import PdfFonts
from studio.export.storyboard import TextStyle
from studio.export.typeface import split_runs

LATIN = frozenset(map(ord, "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ.,!?'-\u2026\u2600"))
CJK = frozenset(map(ord, "東京こんにちは"))
EMOJI = frozenset({0x2600, 0x1F600, 0x1F30A, 0xFE0F})


@pytest.fixture
def fonts() -> PdfFonts:
    styles = {TextStyle.REGULAR: "Sans", TextStyle.BOLD: "Sans-Bold", TextStyle.ITALIC: "Sans-Italic"}
    return PdfFonts(styles, (Path("sans.ttf"), Path("cjk.ttf"), Path("emoji.ttf")), (LATIN, CJK, EMOJI),
                    ("Fallback-1", "Fallback-2"), {"Fallback-2": Path("emoji.ttf")})


@pytest.fixture
def splits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []

    def counting(text: str, covers: object, colour: object = ()) -> list[tuple[int, str]]:
        calls.append(text)
        return split_runs(text, covers, colour)  # type: ignore[arg-type]

    monkeypatch.setattr(sheet_pdf, "split_runs", counting)
    return calls


def test_a_line_in_the_text_font_is_not_split(fonts: PdfFonts, splits: list[str]) -> None:
    line = "We have to reach the harbour before the lanterns go out, or nobody will find the way back."
    assert fonts.runs(line, TextStyle.REGULAR) == [("Sans", line)]
    assert fonts.runs("", TextStyle.REGULAR) == [("Sans", "")]
    assert splits == []


@pytest.mark.parametrize("line", ["Look \U0001F600 there", "Sunny \u2600\ufe0f day", "Qiqi: 東京 again", "\U0001F30A"])
def test_other_lines_are_split_as_before(fonts: PdfFonts, splits: list[str], line: str) -> None:
    """Pictographs, a character asked for as a picture (U+FE0F) and text the font lacks still
    go in their own runs, exactly as the split gives them."""
    names = ("Sans", "Fallback-1", "Fallback-2")
    expected = [(names[index], run) for index, run in split_runs(line, (LATIN, CJK, EMOJI), (2,))]
    assert fonts.runs(line, TextStyle.REGULAR) == expected
    assert any(name != "Sans" for name, _run in expected)
    assert splits == [line]


def test_a_symbol_the_text_font_has_stays_in_it(fonts: PdfFonts, splits: list[str]) -> None:
    """U+2600 without U+FE0F is text: in the text font, which has it, as the split put it."""
    assert split_runs("a \u2600 b", (LATIN, CJK, EMOJI), (2,)) == [(0, "a \u2600 b")]
    assert fonts.runs("a \u2600 b", TextStyle.REGULAR) == [("Sans", "a \u2600 b")]
    assert splits == []
