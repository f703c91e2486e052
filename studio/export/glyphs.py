"""Which characters of an export's text none of its fonts can draw.

Titles, captions and sheets are drawn with one font (DejaVu Sans where the machine has it)
and the fallback fonts the machine has for what it lacks (:mod:`studio.export.typeface`).
Characters none of them holds (emoji without a colour emoji font, or Japanese on a machine
without a CJK font) come out as empty boxes: an export says so, naming a few of them, rather
than leave the user to find the boxes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from studio.core.text import first_few
from studio.export.branch import Branch
from studio.export.drawing import font_file, italic_font_file
from studio.export.options import CaptionMode, ExportFormat, ExportOptions
from studio.export.typeface import coverage, fallback_font_files, missing_characters


class Italic(str):
    """A text drawn in italics (narration, in burned captions and sheets). :func:`drawn_texts`
    marks these, as :func:`missing_glyphs` gets all texts in one list, so that they are checked
    against the italic typeface's fonts, which begin with a font of fewer characters."""

    __slots__ = ()


def export_fonts(fmt: ExportFormat) -> tuple[Path, ...]:
    """The font files an export in ``fmt`` draws with, fallbacks after the regular font
    (a PDF those reportlab can embed, and colour emoji fonts, drawn there as pictures); none
    when the machine has no TrueType font."""
    if fmt is ExportFormat.PDF:
        from studio.export.sheet_pdf import pdf_fonts

        return pdf_fonts().files
    regular = font_file(False)
    return (regular, *fallback_font_files()) if regular is not None else ()


def italic_fonts(fonts: Sequence[Path]) -> tuple[Path, ...]:
    """The fonts italic text is drawn with, given the regular ones: the italic font first, then
    ``fonts`` (as :func:`studio.export.drawing.load_typeface` chains them)."""
    italic = italic_font_file()
    return tuple(dict.fromkeys((italic, *fonts))) if italic is not None and fonts else tuple(fonts)


def missing_glyphs(texts: Sequence[str], fonts: Sequence[Path] | None = None,
                   italic: Sequence[Path] | None = None) -> list[str]:
    """The distinct characters of ``texts`` that no font of ``fonts`` (by default those of a
    video export) has a glyph for, in the order met; spaces and control characters aside.
    :class:`Italic` texts are checked against ``italic`` (by default :func:`italic_fonts`).
    Empty when the regular font's character map can't be read: no claim either way."""
    fonts = export_fonts(ExportFormat.MP4) if fonts is None else fonts
    covers = [coverage(path) for path in fonts]
    if not covers or not covers[0]:
        return []
    italic_covers = covers
    if any(isinstance(text, Italic) for text in texts):
        italic_covers = [coverage(path) for path in (italic_fonts(fonts) if italic is None else italic)]
        # an italic font whose map can't be read is drawn alone: its texts are judged as the regular's
        italic_covers = italic_covers if italic_covers and italic_covers[0] else covers
    missing: dict[str, None] = {}
    for text in texts:
        missing.update(dict.fromkeys(missing_characters([text], italic_covers if isinstance(text, Italic) else covers)))
    return list(missing)


def drawn_texts(branch: Branch, options: ExportOptions, fmt: ExportFormat) -> list[str]:
    """The texts an export of ``branch`` in ``fmt`` draws with its font (none for subtitle
    and timeline files, which keep the text as text)."""
    if fmt in (ExportFormat.SRT, ExportFormat.VTT, ExportFormat.OTIO):
        return []
    sheet = fmt in (ExportFormat.PDF, ExportFormat.PNG)
    texts = [options.title, options.end_card] + ([options.sheet_title, branch.project_name] if sheet else [])
    for turn in branch.turns:
        if sheet or options.captions is CaptionMode.BURN:
            texts += [Italic(turn.story.narration), *(f"{line.speaker} {line.text}" for line in turn.story.dialogue)]
            # the action's sentence (a sheet's ACTION, the caption of a turn with nothing else to
            # say: see studio.export.cues.turn_cues); never the instruction as written
            spoken = turn.story.narration or any(line.text for line in turn.story.dialogue)
            if sheet or not spoken:
                texts.append(turn.action)
        if sheet:
            texts += [turn.character, turn.story.shot_notes]
        elif options.overlay:
            texts.append(turn.character)
    return texts


def glyph_note(missing: list[str], fmt: ExportFormat | None = None) -> str:
    """A sentence for :func:`missing_glyphs`' result ("" when none are missing). For a PDF,
    whose fonts are only those reportlab can embed, it says when the machine has a font for
    them after all (Noto Sans CJK comes as an OpenType collection a PDF can't embed, and is
    the only Japanese font of many machines): a PNG sheet draws them, where the advice to
    install Noto Sans CJK would send the user after a font already installed."""
    if not missing:
        return ""
    note = (f"{len(missing)} character(s) of the text ({first_few(missing, ' ')}) are in none of the export's fonts "
            "and show as empty boxes in titles, captions and sheets (subtitle and timeline files keep them); ")
    if fmt is ExportFormat.PDF and not missing_glyphs(missing, export_fonts(ExportFormat.PNG)):
        return note + ("this machine has a font with them that a PDF can't embed: export the sheet as PNG "
                       "(--format png), or install a TrueType (.ttf) font that has them")
    # Noto Sans CJK first: it draws each language in its own design, Droid Sans Fallback kanji in a Chinese one
    return note + ("install a font that has them (Japanese and Chinese: Noto Sans CJK, or Droid Sans Fallback; "
                   "Korean: Noto Sans CJK or Nanum Gothic; emoji: Noto Color Emoji)")
