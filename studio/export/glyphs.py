"""Which characters of an export's text its font can't draw.

Titles, captions and sheets are drawn with one TrueType font (DejaVu Sans where the machine
has it). Japanese, Chinese, Korean and emoji are not in it and come out as empty boxes: an
export says so, naming a few of them, rather than leave the user to find the boxes.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from studio.export.branch import Branch, first_few
from studio.export.drawing import font_file
from studio.export.options import CaptionMode, ExportFormat, ExportOptions


@functools.lru_cache(maxsize=4)
def _covered(path: Path) -> frozenset[int]:
    """The code points ``path``'s character map holds (empty if it can't be read)."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    try:
        return frozenset(TTFontFile(str(path)).charToGlyph)
    except Exception:  # a font reportlab can't parse: no claim either way
        return frozenset()


def missing_glyphs(texts: Iterable[str], font: Path | None = None) -> list[str]:
    """The distinct characters of ``texts`` that ``font`` (the export's regular font by
    default) has no glyph for, in the order met; spaces and control characters aside."""
    path = font or font_file(False)
    if path is None:
        return []
    covered = _covered(path)
    if not covered:
        return []
    missing: dict[str, None] = {}
    for text in texts:
        for char in text:
            if ord(char) not in covered and not char.isspace() and unicodedata.category(char)[0] != "C":
                missing[char] = None
    return list(missing)


def drawn_texts(branch: Branch, options: ExportOptions, fmt: ExportFormat) -> list[str]:
    """The texts an export of ``branch`` in ``fmt`` draws with its font (none for subtitle
    and timeline files, which keep the text as text)."""
    if fmt in (ExportFormat.SRT, ExportFormat.OTIO):
        return []
    sheet = fmt in (ExportFormat.PDF, ExportFormat.PNG)
    texts = [options.title, options.end_card] + ([options.sheet_title, branch.project_name] if sheet else [])
    for turn in branch.turns:
        if sheet or options.captions is CaptionMode.BURN:
            texts += [turn.instruction, turn.action, turn.story.narration]
            texts += [f"{line.speaker} {line.text}" for line in turn.story.dialogue]
        if sheet:
            texts += [turn.character, turn.story.shot_notes]
        elif options.overlay:
            texts.append(turn.character)
    return texts


def glyph_note(missing: list[str]) -> str:
    """A sentence for :func:`missing_glyphs`' result ("" when none are missing)."""
    if not missing:
        return ""
    return (f"{len(missing)} character(s) of the text ({first_few(missing, ' ')}) are not in the export's font and "
            "show as empty boxes in titles, captions and sheets (subtitle and timeline files keep them)")
