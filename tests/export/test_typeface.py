"""Fallback fonts in exports: Japanese (and the other scripts DejaVu lacks) drawn with the
machine's CJK font in cards, captions, PNG and PDF sheets, emoji in colour from a colour emoji
font (not in PDF sheets), and characters named when no font has them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from studio.cli import main
from studio.core import AddDialogueLine, SetNarration
from studio.export import ExportOptions, export_branch
from studio.export.drawing import font_file, load_typeface, render_card
from studio.export.typeface import (
    ColourFont,
    Typeface,
    coverage,
    fallback_font_files,
    is_colour_font,
    missing_characters,
    split_runs,
)

from .helpers import Fixture

LATIN = frozenset(range(0x20, 0x250))
KANA = frozenset(range(0x3040, 0x3100))


def test_runs_split_where_the_font_changes_and_spaces_stay_put() -> None:
    covers = [LATIN, KANA]
    assert split_runs("Qiqi", covers) == [(0, "Qiqi")]
    assert split_runs("Qiqi は ok", covers) == [(0, "Qiqi "), (1, "は "), (0, "ok")]
    assert split_runs("a\u0301か\u3099", covers) == [(0, "a\u0301"), (1, "か\u3099")]  # marks follow their letter
    assert split_runs("桜", covers) == [(0, "桜")]  # nobody has it: the primary's box
    assert missing_characters(["Qiqi は 桜 桜 🍞"], covers) == ["桜", "🍞"]
    assert split_runs("", covers) == []


def _fallback() -> Path:
    if font_file(False) is None:
        pytest.skip("no TrueType font on this machine")
    cjk = [path for path in fallback_font_files() if ord("桜") in coverage(path)]
    if not cjk:
        pytest.skip("no CJK font on this machine (packaging/system-packages.txt lists one)")
    return cjk[0]


def _drawn(face: Typeface, text: str, anchor: str = "la") -> np.ndarray:
    image = Image.new("L", (700, 80), 0)
    face.draw(ImageDraw.Draw(image), (600 if anchor[0] != "l" else 10, 40 if anchor[1] == "m" else 10), text, 255,
              anchor=anchor)
    return np.asarray(image)


def test_japanese_is_drawn_with_the_fallback_font_not_as_boxes() -> None:
    _fallback()
    face = load_typeface(32)
    alone = Typeface(face.primary, Path(face.primary.path), 32)  # the export's font without fallbacks
    # Without a fallback every kanji is the same empty box; with one, different kanji differ.
    assert np.array_equal(_drawn(alone, "桜"), _drawn(alone, "夢"))
    assert not np.array_equal(_drawn(face, "桜"), _drawn(face, "夢"))
    assert _drawn(face, "桜").sum() > 0
    # Latin text is drawn exactly as by the export's font alone.
    assert np.array_equal(_drawn(face, "Qiqi waves", "lm"), _drawn(alone, "Qiqi waves", "lm"))
    # A mixed line measures as its runs, and its right anchor ends where asked.
    mixed = "Qiqi は 桜 を見る, ok"
    assert face.width(mixed) == pytest.approx(sum(font.getlength(run) for font, run in face.runs(mixed)))
    assert [run for _font, run in face.runs(mixed)] == ["Qiqi ", "は 桜 を見る", ", ok"]
    columns = np.flatnonzero(_drawn(face, mixed, "rm").any(axis=0))
    assert 590 <= columns.max() <= 600 and abs(columns.min() - (600 - face.width(mixed))) <= 6
    rows = np.flatnonzero(_drawn(face, mixed, "rm").any(axis=1))
    assert abs((rows.min() + rows.max()) / 2 - 40) <= 6  # "m": centred on y


def test_title_card_in_japanese_differs_by_text() -> None:
    _fallback()
    a, b = render_card((320, 180), "桜の木の下で"), render_card((320, 180), "夢の終わりに")
    assert not np.array_equal(a, b)
    assert a.shape == (180, 320, 3)


def test_exports_draw_japanese_and_name_only_what_no_font_has(story: Fixture, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    _fallback()
    pypdf = pytest.importorskip("pypdf")
    first = story.nodes[0]
    story.project.apply(SetNarration(first, "桜の木の下で、キキは空を見上げた。"))
    story.project.apply(AddDialogueLine(first, "キキ", "行ってきます!"))
    pdf = tmp_path / "board.pdf"
    result = export_branch(story.project, story.leaf, pdf, options=ExportOptions(panels_per_page=3))
    assert not any("none of the export's fonts" in note for note in result.notes), result.notes
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(str(pdf)).pages)
    assert "桜の木の下で" in text and "行ってきます" in text
    fonts = {str(font) for page in pypdf.PdfReader(str(pdf)).pages
             for font in page["/Resources"]["/Font"].values()
             for font in [font.get_object()["/BaseFont"]]}
    assert any("Fallback" in name or "Droid" in name or "CJK" in name for name in fonts), fonts
    pages = pypdf.PdfReader(str(pdf)).pages
    assert b" 2 Tr" in b"".join(page.get_contents().get_data() for page in pages)  # bold Japanese: outlined
    png = tmp_path / "board.png"
    export_branch(story.project, story.leaf, png, options=ExportOptions(panels_per_page=3))
    assert png.is_file()
    args = ["export", str(story.project.path), "--leaf", story.leaf, "-q"]
    assert main([*args, "--out", str(tmp_path / "a.mp4"), "--end-card", "おわり \U00013000"]) == 0
    err = capsys.readouterr().err  # an Egyptian hieroglyph: no font of this list has one
    assert "1 character(s) of the text (\U00013000) are in none of the export's fonts" in err, err


def test_a_damaged_font_file_claims_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "DroidSansFallbackFull.ttf"
    bad.write_bytes(b"\x00\x01\x00\x00" + b"not a font" * 50)
    assert coverage(bad) == frozenset()
    assert split_runs("桜 ok", [LATIN, coverage(bad)]) == [(0, "桜 ok")]


def test_fallback_runs_in_a_bold_typeface_are_emboldened() -> None:
    _fallback()
    regular, bold = load_typeface(48), load_typeface(48, bold=True)
    assert bold.embolden and not regular.embolden
    assert _drawn(bold, "桜の木").sum() > 1.1 * _drawn(regular, "桜の木").sum()


EMOJI = frozenset({0x1F359, 0x1F60A, 0x2728, 0x20})


def test_pictographs_prefer_a_colour_font_and_the_spaces_after_them_the_text_font() -> None:
    covers = [LATIN | {0x1F60A}, KANA, EMOJI]
    assert split_runs("ok 😊 ok", covers) == [(0, "ok 😊 ok")]  # no colour font: the text font's emoticon
    assert split_runs("ok 😊 ok", covers, colour=[2]) == [(0, "ok "), (2, "😊"), (0, " ok")]
    assert split_runs("✨🍙 は", covers, colour=[2]) == [(2, "✨🍙"), (0, " "), (1, "は")]
    sun = frozenset({0x2600})
    assert split_runs("a ☀ b", [LATIN | sun, EMOJI | sun], colour=[1]) == [(0, "a ☀ b")]  # text style
    assert split_runs("a ☀\ufe0f b", [LATIN | sun, EMOJI | sun], colour=[1]) == [(0, "a "), (1, "☀\ufe0f"), (0, " b")]


def _colour_font() -> Path:
    if font_file(False) is None:
        pytest.skip("no TrueType font on this machine")
    found = [path for path in fallback_font_files() if is_colour_font(path)]
    if not found:
        pytest.skip("no colour emoji font on this machine (packaging/system-packages.txt lists one)")
    return found[0]


def _colourful(pixels: np.ndarray) -> int:
    """How many pixels are clearly coloured (not grey)."""
    rgb = pixels[..., :3].astype(int)
    return int(((rgb.max(axis=-1) - rgb.min(axis=-1)) > 60).sum())


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_emoji_are_drawn_in_colour_at_the_texts_size(mode: str) -> None:
    _colour_font()
    face = load_typeface(40)
    assert [type(font) for font, _run in face.runs("rice 🍎")][-1] is ColourFont
    alone = Typeface(face.primary, Path(face.primary.path), 40)
    canvas = Image.new(mode, (300, 80), (20, 20, 20, 255) if mode == "RGBA" else (20, 20, 20))
    face.draw(ImageDraw.Draw(canvas), (10, 10), "rice 🍎", (230, 230, 230))
    plain = Image.new(mode, canvas.size, (20, 20, 20, 255) if mode == "RGBA" else (20, 20, 20))
    alone.draw(ImageDraw.Draw(plain), (10, 10), "rice 🍎", (230, 230, 230))
    assert _colourful(np.asarray(canvas)) > 200 and _colourful(np.asarray(plain)) == 0
    # about one and a quarter em wide, in the line's height, after the word
    width = face.width("🍎")
    assert 0.9 * 40 < width < 1.6 * 40
    rgb = np.asarray(canvas)[..., :3].astype(int)
    coloured = np.argwhere(rgb.max(axis=-1) - rgb.min(axis=-1) > 60)
    assert coloured[:, 1].min() >= 10 + face.width("rice ") - 2
    assert coloured[:, 0].min() >= 8 and coloured[:, 0].max() <= 10 + face.line_height() + 2


def test_an_emoji_at_the_edge_is_clipped_not_an_error() -> None:
    _colour_font()
    face = load_typeface(30)
    canvas = Image.new("RGB", (40, 30), (0, 0, 0))
    face.draw(ImageDraw.Draw(canvas), (-20, -10), "🍎", (255, 255, 255))
    face.draw(ImageDraw.Draw(canvas), (35, 25), "🍎", (255, 255, 255))
    face.draw(ImageDraw.Draw(canvas), (500, 500), "🍎", (255, 255, 255))
    assert _colourful(np.asarray(canvas)) > 0


def test_a_pdf_sheet_draws_emoji_as_pictures(story: Fixture, tmp_path: Path) -> None:
    import shutil
    import subprocess

    from studio.export.glyphs import export_fonts, missing_glyphs
    from studio.export.options import ExportFormat

    emoji = _colour_font()
    if shutil.which("pdftoppm") is None:
        pytest.skip("needs poppler-utils (pdftoppm)")
    assert emoji in export_fonts(ExportFormat.PDF) and emoji in export_fonts(ExportFormat.MP4)
    assert missing_glyphs(["ok 🍎"], export_fonts(ExportFormat.PDF)) == []

    def title_band(title: str, name: str) -> np.ndarray:
        pdf = tmp_path / f"{name}.pdf"
        result = export_branch(story.project, story.leaf, pdf, options=ExportOptions(panels_per_page=3, title=title))
        assert not any("none of the export's fonts" in note for note in result.notes), result.notes
        subprocess.run(["pdftoppm", "-png", "-r", "72", "-f", "1", "-l", "1", str(pdf), str(tmp_path / name)],
                       check=True, capture_output=True, timeout=60)
        page = np.asarray(Image.open(next(tmp_path.glob(f"{name}*.png"))).convert("RGB"))
        return page[: page.shape[0] // 12]

    assert _colourful(title_band("Apples 🍎🍎", "with")) > 20
    assert _colourful(title_band("Apples", "without")) == 0
    assert ColourFont.load(tmp_path / "nothing.ttf", 20) is None


def test_a_colour_font_of_outlines_is_drawn_as_a_picture_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Segoe UI Emoji's kind (layered outlines, any size) goes the same way as a bitmap font:
    rendered in its colours at one of the sizes tried, scaled, laid over colour and grey images."""
    from studio.export import typeface

    regular = font_file(False)
    if regular is None:
        pytest.skip("no TrueType font on this machine")
    primary = load_typeface(30).primary
    monkeypatch.setattr(typeface, "is_colour_font", lambda _path: True)
    face = Typeface(primary, Path(primary.path), 30, [regular])  # a stand-in "colour" font with outlines
    face.covers = (frozenset(), face.covers[1])  # the primary claims nothing: every run is the fallback's
    assert face.colour == (1,)
    for mode in ("RGB", "L"):
        canvas = Image.new(mode, (200, 50), 0)
        face.draw(ImageDraw.Draw(canvas), (5, 5), "ok 😊", 255 if mode == "L" else (255, 255, 255))
        assert np.asarray(canvas).sum() > 0


def _only_in_regular() -> tuple[Path, Path, str, str]:
    """The regular and italic fonts, and two letters only the regular font of the chain has
    (DejaVu Sans has Arabic, its Oblique none): the italic face's fallback is what draws them."""
    from studio.export.drawing import italic_font_file

    regular, italic = font_file(False), italic_font_file()
    if regular is None or italic is None or regular == italic:
        pytest.skip("needs a regular and an italic TrueType font (DejaVu Sans and its Oblique)")
    others = frozenset().union(*(coverage(path) for path in fallback_font_files()))
    letters = [chr(code) for code in sorted(coverage(regular) - coverage(italic) - others)
               if chr(code).isalpha()]
    if len(letters) < 2:
        pytest.skip("the italic font has every letter the regular one has")
    return regular, italic, letters[0], letters[1]


def test_italic_narration_falls_back_to_the_regular_font_not_boxes() -> None:
    from studio.export.drawing import caption_patch

    regular, italic, one, other = _only_in_regular()
    face = load_typeface(32, italic=True)
    assert [Path(getattr(font, "path", "")) for font, _run in face.runs(f"Qiqi {one}{other}")] == [italic, regular]
    alone = Typeface(face.primary, italic, 32)  # the italic font by itself: the same box for both
    assert np.array_equal(_drawn(alone, one), _drawn(alone, other))
    assert not np.array_equal(_drawn(face, one), _drawn(face, other))
    # a burned narration caption, drawn in italics
    first = caption_patch((640, 360), f"Qiqi {one}", italic=True)
    second = caption_patch((640, 360), f"Qiqi {other}", italic=True)
    assert first is not None and second is not None
    assert not np.array_equal(first.rgba, second.rgba)
    if any(ord("桜") in coverage(path) for path in fallback_font_files()):  # CJK still after the regular font
        assert [run for _font, run in face.runs(f"{one} 桜")] == [f"{one} ", "桜"]
        assert not np.array_equal(_drawn(face, "桜"), _drawn(face, "夢"))


def test_missing_glyphs_checks_italic_text_against_the_italic_fonts(story: Fixture) -> None:
    from studio.export.branch import collect_branch
    from studio.export.glyphs import Italic, drawn_texts, missing_glyphs
    from studio.export.options import CaptionMode, ExportFormat

    regular, italic, one, _other = _only_in_regular()
    # drawn by the italic face through its fallback to the regular font: nothing missing
    assert missing_glyphs([Italic(f"Qiqi {one}")]) == []
    # an italic face without the regular font: only the italic text misses it
    assert missing_glyphs([f"ok {one}"], [regular], [italic]) == []
    assert missing_glyphs([f"ok {one}", Italic(f"ok {one} \U00013000")], [regular], [italic]) == [one, "\U00013000"]
    # narration is the italic text of captions and sheets
    story.project.apply(SetNarration(story.nodes[0], f"Qiqi {one}"))
    branch = collect_branch(story.project, story.leaf)
    burned = ExportOptions(captions=CaptionMode.BURN)
    for fmt, options in ((ExportFormat.MP4, burned), (ExportFormat.PNG, ExportOptions())):
        texts = drawn_texts(branch, options, fmt)
        assert [text for text in texts if isinstance(text, Italic)] == [turn.story.narration for turn in branch.turns]
