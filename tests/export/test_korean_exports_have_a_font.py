"""Korean is one of the four languages a turn may be written in, and its caption is a Korean
sentence; yet the fonts the set-up installed (DejaVu Sans, Droid Sans Fallback) had almost no
Hangul, so a Korean story's burned captions, titles and sheets came out as empty boxes on a
machine set up as the README says. The system packages now bring Nanum Gothic, a TrueType
font that both the video and the PDF sheet can draw with.

This test checks the set-up itself: `make test` installs the system packages first, so on a
machine it set up every Hangul syllable of the caption has a font."""

from __future__ import annotations

from pathlib import Path

import pytest

from studio.export.glyphs import export_fonts, missing_glyphs
from studio.export.options import ExportFormat
from studio.export.typeface import coverage

SYSTEM_PACKAGES = Path(__file__).resolve().parents[2] / "packaging" / "system-packages.txt"
CAPTION = "민수는 밤에 공원에서 달린다. 유진: 「같이 가자!」 캐릭터 동작 배경 시간 카메라"
SYLLABLES = [chr(code) for code in range(0xAC00, 0xD7A4, 97)]
"""A spread of the 11,172 modern syllables (every 97th), beyond the caption's few."""


def _hangul_probe() -> tuple[str, list[str]]:
    for line in SYSTEM_PACKAGES.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[0] == "run" and fields[2].startswith("font:") and "Nanum" in fields[2]:
            return fields[1], fields[2].removeprefix("font:").split(",")
    raise AssertionError("the system packages name no font for Korean")


def test_the_system_packages_bring_a_hangul_font_probed_by_its_files() -> None:
    package, files = _hangul_probe()
    assert package == "fonts-nanum"
    assert "NanumGothic.ttf" in files


@pytest.mark.parametrize("fmt", [ExportFormat.MP4, ExportFormat.PNG, ExportFormat.PDF], ids=lambda f: f.value)
def test_korean_captions_titles_and_sheets_have_a_glyph_for_every_syllable(fmt: ExportFormat) -> None:
    fonts = export_fonts(fmt)
    assert fonts, "no TrueType font: the system packages were not installed"
    assert missing_glyphs([CAPTION, "".join(SYLLABLES)], fonts) == []
    hangul_fonts = [path for path in fonts if all(ord(char) in coverage(path) for char in "민수가")]
    assert any(path.suffix.lower() == ".ttf" for path in hangul_fonts), hangul_fonts
